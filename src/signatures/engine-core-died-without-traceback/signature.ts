import { defineSignature } from '../define-signature.js';

// vLLM's API process saw its engine core die during start-up and names no process (`{}`): the core left no
// traceback of its own, or it would be the cause. Like the other deaths it weighs the least.
export default defineSignature({
  id: 'engine-core-died-without-traceback',
  title: "vLLM's engine core died during start-up without a traceback",
  category: 'other',
  engines: ['vllm'],
  keywords: ['failed core proc'],
  match: {
    message: /Engine core initialization failed\.(?: See root cause above\.)? Failed core proc\(s\): \{\}/,
  },
  explanation:
    "vLLM's API process waited for its engine core to start and saw it go, and the core printed no Python error here: it was killed (SIGKILL, most often the kernel's OOM killer while weights load or kernels compile, a JIT build's parallel compilers filling the host's memory) or crashed in native code, or its own output went to another stream or file. The empty set of failed processes is what vLLM prints when the core never reported back.",
  fix: "Look for the killer first: `journalctl -k | grep -i -e oom -e killed` (or `dmesg -T`), `docker inspect -f '{{.State.OOMKilled}}' NAME` or `kubectl describe pod POD`; then the core's own output (stderr) if it went elsewhere.",
  action: [
    {
      kind: 'inspect-exit',
      look: ['oom-killer', 'core-dump'],
    },
    {
      kind: 'step',
      text: 'If the OOM killer ended it: give the server more host memory, or load and compile with less at once (MAX_JOBS for JIT builds, fewer loader workers).',
    },
  ],
  references: ['https://github.com/vllm-project/vllm/issues/45626'],
  weight: 0.01,
});
