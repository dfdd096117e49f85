import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'ray-no-gpu-on-node',
  title: 'Ray sees no free GPU on the node running the engine',
  category: 'distributed-ray',
  engines: ['vllm'],
  keywords: ['current node has no gpu available', 'does not allocate any gpus on the driver node'],
  match: {
    message: /Current node has no GPU available|Ray does not allocate any GPUs on the driver node/,
  },
  explanation:
    "vLLM's Ray executor places its first worker on the node where the engine process runs, and Ray reports no " +
    'available "GPU" resource there. Either the node joined the Ray cluster without GPUs registered (started with ' +
    '--num-gpus=0, or before the GPUs were visible), or GPUs are still reserved by placement groups of an earlier run ' +
    'that was killed instead of shut down, or the engine runs on a CPU-only head node.',
  fix:
    'Check with `ray status`; release stale reservations with `ray stop --force` on every node and restart the cluster ' +
    '(`ray start --head --num-gpus=<n>` / `ray start --address=<head>:6379 --num-gpus=<n>`), then start vLLM on a node ' +
    'that has GPUs.',
  action: [
    { kind: 'step', text: 'Check what Ray sees:' },
    { kind: 'command', argv: ['ray', 'status'], where: 'server' },
    {
      kind: 'step',
      text: 'release stale reservations with ray stop --force on every node and restart the cluster with --num-gpus, then start vLLM on a node that has GPUs; on a single node skip Ray:',
    },
    { kind: 'engine-option', option: 'distributed-executor-backend', value: 'mp' },
  ],
  alternative: 'On a single node, skip Ray: `--distributed-executor-backend mp`.',
  references: ['https://github.com/vllm-project/vllm/issues/29265'],
});
