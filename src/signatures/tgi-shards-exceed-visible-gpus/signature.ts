import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'tgi-shards-exceed-visible-gpus',
  title: 'TGI asked for more shards than the GPUs it sees',
  category: 'config-invalid',
  engines: ['tgi'],
  keywords: ['each process is one gpu'],
  match: {
    exception: 'AssertionError',
    message: /Each process is one gpu/,
  },
  explanation:
    'TGI starts one shard process per GPU and checks that the world size (--num-shard, or every GPU when --sharded ' +
    'is set without it) is at most the number of CUDA devices the shard sees. It saw fewer: the container was given ' +
    'fewer GPUs than shards, or CUDA_VISIBLE_DEVICES hides some.',
  fix:
    'Set `--num-shard` to the number of GPUs the container sees (`nvidia-smi -L` inside it), or expose more GPUs ' +
    '(`docker run --gpus all`, CUDA_VISIBLE_DEVICES).',
  action: [
    {
      kind: 'step',
      text: 'Make the shards match the GPUs the server sees (docker run --gpus all, CUDA_VISIBLE_DEVICES); this lists them:',
    },
    { kind: 'command', argv: ['nvidia-smi', '-L'], where: 'server' },
    { kind: 'step', text: 'or shard over no more than that many:' },
    { kind: 'engine-option', option: 'tensor-parallel-size', value: '1' },
  ],
  alternative: 'On Kubernetes, the pod’s `nvidia.com/gpu` limit must be at least the number of shards.',
  references: [
    'https://github.com/huggingface/text-generation-inference/issues/2432',
    'https://github.com/huggingface/text-generation-inference/issues/429',
  ],
});
