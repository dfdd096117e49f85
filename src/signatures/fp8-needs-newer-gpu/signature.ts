import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'fp8-needs-newer-gpu',
  title: 'FP8 on a GPU older than Ada/Hopper',
  category: 'gpu-arch-unsupported',
  engines: ['vllm', 'sglang', 'trtllm'],
  keywords: ['fp8', 'minimum capability: 89', '_scaled_mm is only supported'],
  match: {
    message:
      /quantization method \w*fp8\w* is not supported for the current GPU|quantization method \w+ is not supported for the current GPU\. Minimum capability: 89\b|type fp8e4nv not supported in this architecture|_scaled_mm is only supported on CUDA devices with compute capability >= 9\.0 or 8\.9/,
  },
  explanation:
    'The model or a setting asks for FP8 (an FP8-quantized checkpoint, --quantization fp8, or an fp8 KV cache), ' +
    'and the FP8 arithmetic used here needs compute capability 8.9 (Ada, e.g. L4, L40S, RTX 4090) or 9.0 (Hopper) ' +
    'and newer. On Ampere (A100, A10, RTX 30xx) and older, the native FP8 matrix multiply and the Triton fp8e4nv ' +
    'type do not exist.',
  fix: 'Serve the BF16/FP16 version of the model (or an AWQ/GPTQ int4 one) on this GPU, and drop --quantization fp8 / --kv-cache-dtype fp8',
  action: [
    {
      kind: 'step',
      text: 'Serve the BF16/FP16 version of the model (or an AWQ/GPTQ int4 one) on this GPU, and drop the fp8 quantization and fp8 KV-cache dtype from the server’s options',
    },
  ],
  alternative:
    'Recent vLLM releases can run FP8 weights on Ampere through the weight-only Marlin kernel; upgrading the ' +
    'engine may be enough for plain FP8 checkpoints, not for block-quantized or fp8 KV-cache ones.',
  references: ['https://github.com/vllm-project/vllm/pull/30602'],
});
