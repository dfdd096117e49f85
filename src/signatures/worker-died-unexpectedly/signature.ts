import { defineSignature } from '../define-signature.js';

// A death with no cause in the log: the finding is how it died and where that is recorded. Its weight is
// the least, so a cause the log does hold is never outweighed by the death it led to.
export default defineSignature({
  id: 'worker-died-unexpectedly',
  title: 'a vLLM process died without a traceback',
  category: 'other',
  engines: ['vllm'],
  keywords: ['died unexpectedly'],
  match: {
    // vLLM's executor and engine client see a child's death, not its cause: no Python error was raised.
    message: /\b(?:proc|process) (?<name>\S+) died unexpectedly\b/,
  },
  explanation:
    "vLLM saw its process {name} end, and that process logged no traceback, so it did not die of a Python error. A process that dies this way was killed, most often by the kernel's OOM killer when the host's RAM or the container's limit ran out (SIGKILL), or crashed in native code: a segmentation fault or an abort in a CUDA kernel, NCCL or a compiled extension. The kernel log and the process's own last lines say which.",
  fix: "Look for the killer and for a crash: `journalctl -k | grep -i -e oom -e killed -e segfault`, `coredumpctl list`, and the process's own last lines above.",
  action: [
    {
      kind: 'inspect-exit',
      look: ['oom-killer', 'core-dump'],
    },
  ],
  references: ['https://github.com/vllm-project/vllm/blob/main/vllm/v1/executor/multiproc_executor.py'],
  weight: 0.01,
});
