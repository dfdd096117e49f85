import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'quantization-gpu-capability-too-low',
  title: 'Quantization method needs a newer GPU',
  category: 'gpu-arch-unsupported',
  engines: ['vllm', 'sglang'],
  keywords: ['is not supported for the current gpu'],
  match: {
    message:
      /The quantization method (?!\w*fp8)(?<method>\w+) is not supported for the current GPU\. Minimum capability: (?!89\b)(?<min>\d+)\. Current capability: (?<cur>\d+)/,
  },
  explanation:
    'The kernels for {method} quantization need compute capability {min} (e.g. 75 = Turing, 80 = Ampere), and this GPU ' +
    'reports {cur}. The check runs before any weight is loaded; no flag makes these kernels run on older hardware.',
  fix: 'Serve an unquantized (float16) version of the model, or a quantization format that supports compute capability {cur}.',
  alternative: 'Or run this checkpoint on a GPU with compute capability {min} or higher.',
  references: ['https://github.com/vllm-project/vllm/issues/14154'],
  // vLLM's config check (`_verify_quantization`) and SGLang's raise it as a ValueError.
  raises: 'ValueError',
});
