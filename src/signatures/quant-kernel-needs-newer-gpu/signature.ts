import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'quant-kernel-needs-newer-gpu',
  title: 'no quantized-matmul kernel runs on this GPU',
  category: 'gpu-arch-unsupported',
  engines: ['vllm'],
  keywords: ['failed to find a kernel that can implement'],
  match: {
    message: /Failed to find a kernel that can implement the (?<layer>\w+) linear layer/,
    context: /requires capability (?<need>\d+), current compute\s+capability is (?<have>\d+)/,
  },
  explanation:
    'vLLM tried every kernel it has for this {layer} (quantized) linear layer and none can run here: the GPU ' +
    "has compute capability {have}, and the candidates need {need} or more (or reject this checkpoint's " +
    'quantization scheme, e.g. asymmetric zero points). The checkpoint format, not a flag, decides which ' +
    'kernels are candidates.',
  fix: 'Use a checkpoint whose format has a kernel for compute capability {have} (for Turing: a symmetric GPTQ/AWQ int4 checkpoint, or the unquantized fp16 model), or a GPU with compute capability {need} or newer',
  alternative:
    'Upgrading vLLM can help: newer releases add kernels for older GPUs (e.g. Exllama for symmetric AWQ on ' +
    'Turing); the full list of reasons is printed under the error.',
  references: ['https://github.com/vllm-project/vllm/pull/30602'],
});
