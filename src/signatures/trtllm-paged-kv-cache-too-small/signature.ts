import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'trtllm-paged-kv-cache-too-small',
  title: 'The paged KV cache cannot hold one sequence of the engine’s maximum length',
  category: 'kv-cache-insufficient',
  engines: ['trtllm'],
  keywords: ['maxtokensinpagedkvcache must be large enough'],
  match: {
    exception: null,
    message: /maxTokensInPagedKvCache must be large enough to process at least 1 sequence/,
    context: /Using (?<tokens>\d+) tokens in paged KV cache/,
  },
  explanation:
    'TensorRT-LLM sized the paged KV cache from the memory left after the engine loaded: {tokens} tokens. One ' +
    'sequence of the engine’s maximum length (beam width × tokens per block × blocks per sequence) needs more, so ' +
    'the executor refuses to start.',
  fix:
    'Give the cache room for more than {tokens} tokens: raise `kv_cache_free_gpu_memory_fraction` (0.9), or set ' +
    '`max_tokens_in_paged_kv_cache` above one sequence, or rebuild the engine with a smaller `--max_seq_len`.',
  action: [
    { kind: 'step', text: 'Give the cache room for more than {tokens} tokens:' },
    { kind: 'engine-option', option: 'gpu-memory-utilization', value: '0.9' },
    {
      kind: 'step',
      text: 'or set max_tokens_in_paged_kv_cache above one sequence, or rebuild the engine with a smaller max_seq_len',
    },
  ],
  references: ['https://nvidia.github.io/TensorRT-LLM/reference/memory.html'],
});
