import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'ray-actor-died',
  title: 'A Ray worker process died',
  category: 'distributed-ray',
  engines: ['vllm', 'sglang'],
  keywords: ['actor died unexpectedly', 'actordiederror', 'rayactorerror', 'a worker died or was killed'],
  match: {
    message:
      /The actor died unexpectedly before finishing this task|ActorDiedError|RayActorError|A worker died or was killed while executing a task/,
  },
  explanation:
    'A Ray actor hosting one of the model workers exited without raising a Python error, so Ray can only report that ' +
    'it is gone. Its exit detail usually points at the real cause: killed by the host OOM killer (CPU RAM, often while ' +
    'loading weights), a segfault or abort in native code, or `ray stop` / node loss.',
  fix:
    'Look at the dead worker\'s own log (the "check the logs for the dead worker" hint, or /tmp/ray/session_latest/logs) ' +
    'and at `dmesg | grep -i -E "killed process|out of memory"` on its node; if it was OOM-killed, give the node more ' +
    'RAM or load with less host memory (fewer workers per node, `--max-parallel-loading-workers 1` in vLLM V0).',
  action: [
    {
      kind: 'step',
      text: 'Look at the dead worker’s own log (/tmp/ray/session_latest/logs) and whether its node killed it for memory:',
    },
    { kind: 'command', argv: ['dmesg', '--level=err,warn'], where: 'host' },
    {
      kind: 'step',
      text: 'if it was OOM-killed, give the node more RAM or load with less host memory; on a single node skip Ray to see the worker’s traceback directly:',
    },
    { kind: 'engine-option', option: 'distributed-executor-backend', value: 'mp' },
  ],
  alternative:
    "On a single node, `--distributed-executor-backend mp` avoids Ray and surfaces the worker's traceback directly.",
  references: [
    'https://github.com/vllm-project/vllm/issues/13535',
    'https://github.com/verl-project/verl/issues/4921',
  ],
  weight: 0.3,
});
