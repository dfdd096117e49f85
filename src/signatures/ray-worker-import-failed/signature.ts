import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'ray-worker-import-failed',
  title: "a Ray worker's Python environment lacks the engine's code",
  category: 'distributed-ray',
  engines: ['vllm', 'sglang'],
  keywords: ['failed to import on the worker', 'no module named'],
  match: {
    // Ray replaces an actor whose class cannot be unpickled on the worker by a `TemporaryActor` placeholder,
    // so everything that worker prints about it carries that name.
    message: /failed to import on the worker|No module named '(?<module>[\w.]+)'/,
    process: /^TemporaryActor\b/,
  },
  explanation:
    'Ray could not load the worker actor on one of its nodes: unpickling the actor class there failed because the ' +
    "Python environment Ray's worker processes use on that node does not have the engine (or one of its modules) " +
    'installed. The head node is fine, which is why the error only appears once work is placed on the other node; ' +
    'common with a custom engine build or a virtual environment installed on the head only.',
  fix:
    'Install the same engine version (and the same Python packages) into the environment Ray runs on every node, then ' +
    'restart Ray there (`ray stop; ray start --address=...` from that environment).',
  alternative:
    'Or ship the environment with the job through a Ray runtime_env (pip or container), or use the engine build that ' +
    'the platform managing the Ray cluster provides.',
  references: [
    'https://github.com/ray-project/ray/blob/master/python/ray/_private/function_manager.py',
    'https://github.com/vllm-project/vllm/issues/1937',
  ],
});
