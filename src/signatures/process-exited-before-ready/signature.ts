import { defineSignature } from '../define-signature.js';

// A death with no cause in the log: the start's process said it was exiting before it became ready, and no
// stop was asked for (build-diagnosis.ts reads it only then). Its weight is the least, like the other deaths.
export default defineSignature({
  id: 'process-exited-before-ready',
  title: 'the server exited during start-up and its log names no cause',
  category: 'other',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy'],
  keywords: ['leaked', 'destroy_process_group', 'not been destroyed'],
  match: {
    exception: null,
    message:
      /There appear to be \d+ leaked (?:semaphore|shared_memory) objects? to clean up at shutdown|destroy_process_group\(\) was not called before program exit|process group has NOT been destroyed before we destruct/,
  },
  explanation:
    "The start never said it was ready, and its Python process printed what an interpreter prints as it ends (the resource tracker's leaked semaphores, PyTorch's process group left undestroyed) with no error and no stop asked for before it. A process that ends this way was most often killed from outside: by the kernel's OOM killer when loading the weights filled the host's RAM or the container's memory limit, or by a supervisor whose start timeout ran out; otherwise a child crashed in native code. What it was doing last (below) says where in the start it ended.",
  fix: "Find how it ended: `journalctl -k | grep -i -e oom -e killed` for the OOM killer, `systemctl status UNIT` (Result: oom-kill or timeout), `docker inspect -f '{{.State.OOMKilled}} {{.State.ExitCode}}' NAME`, or `kubectl describe pod POD`.",
  action: [
    {
      kind: 'inspect-exit',
      look: ['oom-killer', 'core-dump'],
    },
    {
      kind: 'step',
      text: 'If the OOM killer ended it while the weights were loading: give the server more host memory (the container limit, RAM or swap), or load with less at once (fewer loader threads, a smaller or quantized model).',
    },
  ],
  references: ['https://docs.python.org/3/library/multiprocessing.html#multiprocessing-start-methods'],
  weight: 0.01,
});
