import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'vllm-no-kv-cache-blocks',
  title: 'No GPU memory left for the KV cache',
  category: 'kv-cache-insufficient',
  engines: ['vllm'],
  keywords: ['no available memory for the cache blocks'],
  match: {
    message: /No available memory for the cache blocks/,
  },
  explanation:
    'After loading the weights and profiling one forward pass, vLLM found that its memory budget ' +
    '(gpu_memory_utilization x the total GPU memory) was already used up, so not a single KV cache block could be ' +
    'allocated. The budget is too small for this model on this card, or other processes on the GPU shrank what was ' +
    'left when the profile ran.',
  fix:
    'Raise the budget if the GPU is dedicated to this server, e.g. `--gpu-memory-utilization 0.9` (or 0.95); otherwise ' +
    'make the model smaller on each GPU with `--tensor-parallel-size 2` or a quantized checkpoint.',
  action: [
    { kind: 'step', text: 'Raise the budget if the GPU is dedicated to this server:' },
    { kind: 'engine-option', option: 'gpu-memory-utilization', value: '0.9' },
    { kind: 'step', text: 'otherwise make the model smaller on each GPU:' },
    { kind: 'engine-option', option: 'tensor-parallel-size', value: '2' },
    { kind: 'step', text: 'or serve a quantized checkpoint' },
  ],
  alternative:
    'A smaller profiling pass also frees memory for the cache: lower `--max-num-batched-tokens` and `--max-num-seqs`, ' +
    'or `--max-model-len` for multimodal models whose profile uses long inputs.',
  references: [
    'https://github.com/vllm-project/vllm/issues/10439',
    'https://github.com/vllm-project/vllm/issues/27508',
    'https://docs.vllm.ai/en/latest/configuration/conserving_memory/',
  ],
});
