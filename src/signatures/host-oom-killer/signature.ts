import { defineSignature } from '../define-signature.js';

// The kernel's own report (dmesg, `journalctl -k`, a merged journal): the process it chose and why.
export default defineSignature({
  id: 'host-oom-killer',
  title: "the kernel's OOM killer ended the process: the host's memory (or its cgroup's limit) ran out",
  category: 'other',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy', 'llamacpp', 'ollama'],
  keywords: ['oom-kill', 'out of memory: kill', 'invoked oom-killer', 'oom_kill events'],
  match: {
    exception: null,
    message:
      /\b(?:Memory cgroup )?[Oo]ut of memory: Kill(?:ed)? process \d+ \((?<proc>[^)]*)\)|\boom-kill:constraint=|\binvoked oom-killer\b|\bDetected \d+ oom_kill events? in StepId=/,
  },
  explanation:
    'The kernel ran out of memory for processes, in the whole host or in the memory limit of the cgroup the ' +
    "server runs in (a container's, a systemd unit's MemoryMax), and killed the process that held the most. " +
    'Loading weights passes through host memory, so a large model, several workers loading at once or a ' +
    'large swap space is the usual trigger. SIGKILL cannot be caught: the server itself printed nothing.',
  fix: "Give the server more memory (the container's or unit's limit, the host's RAM or swap) or load with less at once (fewer workers loading together, a smaller swap space, a quantized model)",
  action: [
    {
      kind: 'step',
      text: "Give the server more memory (the container's or unit's limit, the host's RAM or swap), or load with less at once: fewer workers loading together, a smaller CPU swap space, a quantized or smaller model.",
    },
  ],
  references: ['https://github.com/deepseek-ai/DeepSeek-VL2/issues/90'],
});
