import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'cuda-assertion-in-kernel',
  title: 'the CUDA kernel assertion `{assertion}` failed in {kernel}',
  category: 'illegal-memory-access',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy'],
  keywords: ['device-side assert triggered'],
  match: {
    message: /device-side assert triggered/,
    // PyTorch's kernels print the check that failed, per thread, before the error reaches the host.
    context:
      /(?<kernel>\w+(?:\(\))?): block: \[[\d,]+\], thread: \[[\d,]+\] Assertion `(?<assertion>[^`\n]{1,200})` failed/,
  },
  blame: 'context',
  explanation:
    'The check `{assertion}` inside the GPU kernel {kernel} failed, and the CUDA error that reached Python ' +
    '("device-side assert triggered") only reports it, asynchronously and often from a later call. The assertion ' +
    'says what was out of range: an index past a tensor (token ids at or above the vocabulary, positions past the ' +
    'rotary table), or a size that does not fit (more image or audio features than placeholder tokens).',
  fix: "Read the assertion for the sizes that disagree, and check the input that feeds {kernel}: the tokenizer against the model's vocab_size, the prompt's multimodal placeholders against its images, max_model_len against max_position_embeddings",
  alternative: 'Rerun with CUDA_LAUNCH_BLOCKING=1 to get the traceback of the call that launched the kernel.',
  references: ['https://github.com/vllm-project/vllm/issues/21731'],
});
