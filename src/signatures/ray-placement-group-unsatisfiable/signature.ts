import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'ray-placement-group-unsatisfiable',
  title: 'Ray cluster cannot provide the GPUs the parallel config asks for',
  category: 'distributed-ray',
  engines: ['vllm'],
  keywords: ['cannot provide a placement group', 'exceeds the total number of available gpus'],
  match: {
    message:
      /Cannot provide a placement group of|required GPUs exceeds the total number of available GPUs in the (?:placement group|cluster)/,
  },
  explanation:
    'vLLM asked Ray for one GPU bundle per worker (tensor-parallel size x pipeline-parallel size) and the cluster could ' +
    'not supply them: fewer GPUs are registered than requested, some are held by another job or a stale placement ' +
    'group, or vLLM started its own local Ray instance instead of joining the existing cluster and only sees this node.',
  fix:
    'Compare `ray status` with the product of `--tensor-parallel-size` and `--pipeline-parallel-size`, and make them ' +
    'agree: lower the parallel sizes or add nodes. Join the existing cluster by exporting `RAY_ADDRESS=<head-ip>:6379` ' +
    'before starting vLLM.',
  action: [
    { kind: 'step', text: 'Compare the GPUs Ray has:' },
    { kind: 'command', argv: ['ray', 'status'], where: 'server' },
    {
      kind: 'step',
      text: 'with tensor times pipeline parallel size, and make them agree: lower the parallel sizes or add nodes; join an existing cluster with RAY_ADDRESS=<head-ip>:6379 before starting',
    },
  ],
  alternative:
    'In Kubernetes, the parallel size must not exceed the `nvidia.com/gpu` limit of the pod (or the sum over the Ray ' +
    'worker pods).',
  references: [
    'https://github.com/vllm-project/vllm/issues/3416',
    'https://github.com/vllm-project/vllm/issues/29265',
  ],
});
