import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'vllm-kv-cache-memory-negative',
  title: 'Nothing left for the KV cache: the weights and activations took more than the memory budget',
  category: 'kv-cache-insufficient',
  engines: ['vllm'],
  keywords: ['available kv cache memory: -'],
  match: {
    exception: null,
    message: /Available KV cache memory: -(?<kv>\d+(?:\.\d+)?) ?GiB/,
  },
  explanation:
    'After loading the weights and profiling a forward pass, vLLM subtracts what they use from the share of the GPU ' +
    '`--gpu-memory-utilization` allows and gives the rest to the KV cache. Here the rest is -{kv} GiB: the model ' +
    'alone does not fit in the budget on each GPU, so not even one block of KV cache can be allocated.',
  fix:
    'Make room for at least {kv} GiB more per GPU: a higher `--gpu-memory-utilization` (0.95 on a dedicated GPU), ' +
    'or spread the weights with `--tensor-parallel-size 2`, or a smaller (quantized) checkpoint.',
  action: [
    {
      kind: 'step',
      text: 'Make room for at least {kv} GiB more per GPU: on a dedicated GPU a higher budget,',
    },
    { kind: 'engine-option', option: 'gpu-memory-utilization', value: '0.95' },
    { kind: 'step', text: 'or spread the weights over more GPUs,' },
    { kind: 'engine-option', option: 'tensor-parallel-size', value: '2' },
    { kind: 'step', text: 'or a smaller (quantized) checkpoint' },
  ],
  alternative:
    'Or shrink the activations the profile measured: a lower `--max-num-batched-tokens` or `--max-num-seqs`, ' +
    'or `--enforce-eager` to skip CUDA graphs.',
  references: ['https://docs.vllm.ai/en/latest/configuration/conserving_memory/'],
});
