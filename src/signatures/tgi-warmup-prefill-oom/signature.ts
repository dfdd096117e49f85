import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'tgi-warmup-prefill-oom',
  title: 'TGI warmup: not enough memory for the prefill batch',
  category: 'oom-gpu',
  engines: ['tgi'],
  keywords: ['not enough memory to handle'],
  match: {
    message: /Not enough memory to handle (?<tokens>\d+)(?: total tokens with \d+)? prefill tokens/,
  },
  explanation:
    'Before serving, TGI runs a warmup forward pass with the largest prefill batch it promises to accept ' +
    '(max-batch-prefill-tokens, {tokens} here) to size the KV cache. That pass ran out of GPU memory, so the weights ' +
    'leave too little room for a prefill of that size on this card.',
  fix: 'Lower the prefill budget below {tokens}, e.g. `--max-batch-prefill-tokens 2048` (with `--max-input-tokens` at most that).',
  action: [
    { kind: 'step', text: 'Lower the prefill budget below {tokens} (the input limit at most that):' },
    { kind: 'engine-option', option: 'max-num-batched-tokens', value: '2048' },
  ],
  alternative:
    'Shard the model over more GPUs with `--num-shard 2`, or serve a quantized checkpoint (`--quantize awq` / `gptq` ' +
    'for such a repo). If a quantized model fails this way on a nearly empty GPU, the failure may be a kernel error ' +
    'reported as out of memory; check the shard traceback above it.',
  references: [
    'https://github.com/huggingface/text-generation-inference/issues/755',
    'https://github.com/huggingface/text-generation-inference/issues/710',
  ],
});
