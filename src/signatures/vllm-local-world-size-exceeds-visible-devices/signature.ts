import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'vllm-local-world-size-exceeds-visible-devices',
  title: 'vLLM’s workers on this node outnumber its visible GPUs',
  category: 'config-invalid',
  engines: ['vllm'],
  keywords: ['number of visible devices'],
  match: {
    message:
      /local_world_size \((?<size>\d+)\) must be less than or equal to the number of visible devices \((?<gpus>\d+)\)/,
  },
  explanation:
    'vLLM V1 checks that the workers it starts on this node ({size}: tensor times pipeline parallel size on one node) ' +
    'are no more than the GPUs the node shows ({gpus}). On one machine the parallel sizes ask for more GPUs than it ' +
    'has or CUDA_VISIBLE_DEVICES hides some; on a multi-node Ray cluster some releases counted the whole world as ' +
    'local (fixed in later releases).',
  fix:
    'On one node: `--tensor-parallel-size {gpus}` (times `--pipeline-parallel-size` at most {gpus}), or expose more ' +
    'GPUs. Across Ray nodes with a parallel size that fits the cluster: upgrade vLLM.',
  action: [
    { kind: 'step', text: 'On one node, ask for at most the {gpus} GPUs it shows:' },
    { kind: 'engine-option', option: 'tensor-parallel-size', value: '{gpus}' },
    {
      kind: 'step',
      text: 'Across Ray nodes with a parallel size that fits the whole cluster, the check is the release’s: upgrade it:',
    },
    { kind: 'install', requirements: [], engine: true, options: ['--upgrade'] },
  ],
  alternative:
    'Check what the node shows with `nvidia-smi -L` and `echo $CUDA_VISIBLE_DEVICES` in the server’s environment.',
  references: [
    'https://github.com/vllm-project/vllm/issues/28997',
    'https://github.com/vllm-project/vllm/pull/28873',
  ],
});
