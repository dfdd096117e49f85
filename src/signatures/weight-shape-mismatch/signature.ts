import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'weight-shape-mismatch',
  title: 'Checkpoint tensor shape does not match the model',
  category: 'model-load-weights',
  engines: ['vllm', 'sglang', 'tgi'],
  keywords: ['attempted to load weight', 'size mismatch for', 'shape mismatch'],
  match: {
    message:
      /Attempted to load weight \(torch\.Size\(\[[\d, ]*\]\)\) into parameter \(torch\.Size\(\[[\d, ]*\]\)\)|size mismatch for [\w.]+: copying a param with shape|weight shape mismatch/,
  },
  explanation:
    'A tensor in the checkpoint has a different shape from the parameter the engine built for it. The model code ' +
    'derived its shapes from config.json (hidden size, vocabulary, heads, quantization group size), and the weights ' +
    'do not agree: the config belongs to another variant, the vocabulary was resized during fine-tuning, or the ' +
    'checkpoint uses a quantization packing this loader does not expect (pre-quantized bitsandbytes exports are a ' +
    'common case).',
  fix:
    'Make config.json and the weights come from the same export (re-save the fine-tuned model with its own config and ' +
    'tokenizer), or use a checkpoint format the engine documents as supported for this architecture.',
  alternative:
    'For a pre-quantized export that fails, load the unquantized model and quantize at load time instead (e.g. vLLM ' +
    '`--quantization bitsandbytes` on the original weights).',
  references: [
    'https://github.com/vllm-project/vllm/issues/15959',
    'https://github.com/vllm-project/vllm/issues/19361',
  ],
});
