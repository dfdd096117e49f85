import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'ray-cluster-not-running',
  title: 'no running Ray cluster to connect to',
  category: 'distributed-ray',
  engines: ['vllm', 'sglang', 'trtllm'],
  keywords: ['could not find any running ray instance'],
  match: {
    message: /Could not find any running Ray instance/,
  },
  explanation:
    'The server was asked to join an existing Ray cluster (RAY_ADDRESS, `address="auto"` or a multi-node ' +
    'launch) but found no Ray head on this node: `ray start` was never run here, it ran in another container or ' +
    'user session, or the head has already exited.',
  fix: 'Start Ray before the server (`ray start --head` on the head node, `ray start --address=<head-ip>:6379` on the others, in the same container) or point RAY_ADDRESS at the running head.',
  action: [
    {
      kind: 'step',
      text: 'Start Ray before the server (ray start --head on the head node, ray start --address=<head-ip>:6379 on the others, in the same container) or point RAY_ADDRESS at the running head; on a single node drop Ray:',
    },
    { kind: 'engine-option', option: 'distributed-executor-backend', value: 'mp' },
  ],
  alternative:
    'For a single node, drop the Ray backend (`--distributed-executor-backend mp`) or unset RAY_ADDRESS so the engine ' +
    'starts its own local Ray instance.',
  references: [
    'https://github.com/ray-project/ray/blob/master/python/ray/_private/services.py',
    'https://docs.vllm.ai/en/latest/serving/distributed_serving.html',
  ],
});
