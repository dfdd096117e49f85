import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'sglang-kv-pool-no-memory',
  title: 'SGLang has no memory left for the KV cache pool',
  category: 'kv-cache-insufficient',
  engines: ['sglang'],
  keywords: ['please try to increase --mem-fraction-static'],
  match: {
    message: /Not enough memory\. Please try to increase --mem-fraction-static/,
  },
  explanation:
    'SGLang gives the weights and the KV cache pool together a static share of the GPU (mem_fraction_static). After ' +
    "the weights were loaded nothing of that share was left, so the token pool came out empty. Unlike vLLM's budget, " +
    'lowering this fraction makes it worse; the weights must fit inside it with room to spare.',
  fix: 'Raise the static share, e.g. `--mem-fraction-static 0.85` (above the current value), if the GPU is not shared.',
  action: [
    { kind: 'step', text: 'Raise the static share above the current value, if the GPU is not shared:' },
    { kind: 'engine-option', option: 'gpu-memory-utilization', value: '0.85' },
  ],
  alternative:
    'Or put less of the model on each GPU: `--tp 2` over two GPUs, or a quantized checkpoint; a shorter ' +
    '`--context-length` and lower `--max-running-requests` reduce the other reservations.',
  references: [
    'https://github.com/sgl-project/sglang/issues/322',
    'https://github.com/sgl-project/sglang/issues/4330',
  ],
});
