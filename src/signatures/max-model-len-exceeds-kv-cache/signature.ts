import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'max-model-len-exceeds-kv-cache',
  title: 'KV cache too small for one sequence of max_model_len',
  category: 'kv-cache-insufficient',
  engines: ['vllm'],
  keywords: ['max seq len'],
  match: {
    // The V1 sentence is unambiguous from its opening words, so a hard-wrapped or cut line still matches.
    message:
      /max seq len \((?<len>\d+)\)(?: is larger than the maximum number of tokens that can be stored in KV cache(?: \((?<tokens>\d+)\))?|, \(?[\d.]+ GiB KV cache is needed, which is larger than the available KV cache memory(?: \([\d.]+ GiB\)\. Based on the available memory, the estimated maximum model length is (?<estimated>\d+))?|(?<=To serve at least one request with the models?'s max seq len \(\d+\)))/,
  },
  explanation:
    'vLLM refuses to start unless the KV cache can hold at least one request of the full context length. With ' +
    'max_model_len {len}, the memory left after the weights and activations is too small for a single such sequence, ' +
    'often because the default context length comes from a model that supports far longer inputs than you need.',
  fix:
    'Lower the context length below what fits: `--max-model-len` under {len}, e.g. to the "estimated maximum model ' +
    'length" or the KV cache token count the error names.',
  // The length the log itself says fits: vLLM's own estimate (V1), else the KV cache's token count (V0).
  action: [
    { kind: 'engine-option', option: 'max-model-len', value: '{estimated}' },
    { kind: 'engine-option', option: 'max-model-len', value: '{tokens}' },
  ],
  alternative:
    'Or give the KV cache more room: a higher `--gpu-memory-utilization` (0.9 to 0.95 on a dedicated GPU), ' +
    '`--kv-cache-dtype fp8`, or `--tensor-parallel-size 2` to spread the cache over two GPUs.',
  references: [
    'https://github.com/vllm-project/vllm/issues/2418',
    'https://github.com/vllm-project/vllm/pull/2163',
    'https://docs.vllm.ai/en/latest/configuration/conserving_memory/',
  ],
});
