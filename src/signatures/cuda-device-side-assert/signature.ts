import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'cuda-device-side-assert',
  title: 'a CUDA kernel assertion failed (usually an index out of range)',
  category: 'illegal-memory-access',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy'],
  keywords: ['device-side assert triggered'],
  match: {
    message: /device-side assert triggered/,
  },
  explanation:
    'A check inside a GPU kernel failed, most often an index out of range: a token id at or above the embedding ' +
    'size (tokenizer and model vocabularies disagree, or added special tokens without resized embeddings), a ' +
    'position past the rotary table, or NaN/inf probabilities in sampling. The CUDA context is unusable afterwards, ' +
    'and the traceback may point at a later call.',
  fix: 'Rerun with CUDA_LAUNCH_BLOCKING=1 to see the failing kernel and assertion (the "Assertion `...` failed" line above names it), then check that the tokenizer\'s vocab size matches the model\'s vocab_size and that max_model_len does not exceed max_position_embeddings',
  action: [
    {
      kind: 'step',
      text: 'Rerun with CUDA_LAUNCH_BLOCKING=1 to see the failing kernel and assertion (the "Assertion `...` failed" line above names it):',
    },
    { kind: 'environment-variable', name: 'CUDA_LAUNCH_BLOCKING', value: '1' },
    {
      kind: 'step',
      text: "then check that the tokenizer's vocab size matches the model's vocab_size and that max_model_len does not exceed max_position_embeddings",
    },
  ],
  alternative:
    'If the assertion is in sampling (probability tensor contains inf/nan), the model produced NaNs: try ' +
    '--dtype bfloat16 instead of float16, or a non-quantized checkpoint.',
  references: [
    'https://github.com/vllm-project/vllm/issues/21731',
    'https://github.com/vllm-project/vllm/issues/11375',
  ],
});
