import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'cuda-no-kernel-image',
  title: 'no compiled kernel for this GPU architecture',
  category: 'gpu-arch-unsupported',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy', 'llamacpp', 'ollama'],
  // ggml's CUDA backend says it in its own words, from a kernel built without the architecture's code.
  keywords: ['no kernel image is available', 'ggml-cuda was compiled without support'],
  match: {
    message:
      /no kernel image is available for execution on the device|ggml-cuda was compiled without support for the current GPU architecture/,
  },
  explanation:
    'A CUDA kernel was launched that has no compiled version (neither machine code nor PTX) for this GPU. The ' +
    "library that owns it (torch, flashinfer, the engine's own extension, TurboMind, ggml) was built for a list of " +
    'architectures that leaves this GPU out: it is older than the build supports (e.g. V100 sm_70 or T4 sm_75 with ' +
    'kernels built for sm_80 and up) or newer (e.g. Blackwell sm_120 with a build that stops at sm_90).',
  fix: 'nvidia-smi --query-gpu=name,compute_cap --format=csv shows the architecture; install a build that includes it (for Blackwell, one built with CUDA 12.8 or newer), or for just-in-time built kernels (flashinfer, TensorRT-LLM plugins) set TORCH_CUDA_ARCH_LIST to it, e.g. TORCH_CUDA_ARCH_LIST=9.0, and clear their cache',
  action: [
    { kind: 'step', text: 'This shows the GPU’s architecture:' },
    { kind: 'command', argv: ['nvidia-smi', '--query-gpu=name,compute_cap', '--format=csv'], where: 'host' },
    {
      kind: 'step',
      text: 'install a build that includes it (for Blackwell, one built with CUDA 12.8 or newer), or for just-in-time built kernels (flashinfer, TensorRT-LLM plugins) set TORCH_CUDA_ARCH_LIST to it (e.g. 9.0) and clear their cache',
    },
  ],
  alternative:
    'If only one optional kernel lacks the architecture, switching the backend that uses it often works (e.g. ' +
    '--attention-backend triton on SGLang, VLLM_ATTENTION_BACKEND on vLLM).',
  references: [
    'https://github.com/flashinfer-ai/flashinfer/issues/920',
    'https://github.com/sgl-project/sglang/issues/831',
  ],
  // Generic: the signatures that also name the GPU's architecture from nearby lines win over it.
  weight: 0.9,
});
