import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'nvcc-too-old-for-build',
  title: 'CUDA toolkit too old for the kernels being compiled',
  category: 'kernel-compile',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy'],
  keywords: ['unsupported gpu architecture', 'nvcc fatal', 'requires cuda >='],
  match: {
    message:
      /nvcc fatal\s*:\s*(?:Unsupported gpu architecture 'compute_\w+'|Unknown option '[^']+')|SM \d+\.x requires CUDA >= \d+\.\d+/,
  },
  explanation:
    'Kernels compiled at start-up (flashinfer JIT, DeepGEMM, a torch extension) are built with the nvcc found ' +
    "through CUDA_HOME or PATH, and that toolkit is older than the build needs: it does not know this GPU's " +
    'architecture (Blackwell needs CUDA 12.8+) or a flag that newer build scripts pass. The torch wheel brings its ' +
    'own CUDA runtime, so the system toolkit can lag behind without anything else failing.',
  fix: 'Install a CUDA toolkit at least as new as torch.version.cuda (12.8+ for Blackwell) and point CUDA_HOME at it, e.g. export CUDA_HOME=/usr/local/cuda-12.8',
  action: [
    {
      kind: 'step',
      text: 'Install a CUDA toolkit at least as new as torch.version.cuda (12.8+ for Blackwell) and point CUDA_HOME at it:',
    },
    { kind: 'environment-variable', name: 'CUDA_HOME', value: '/usr/local/cuda-12.8' },
  ],
  alternative:
    'Or install the prebuilt kernels so nothing compiles (pip install flashinfer-cubin flashinfer-jit-cache at ' +
    "flashinfer-python's version), or restrict the build to your GPU with TORCH_CUDA_ARCH_LIST.",
  references: ['https://github.com/flashinfer-ai/flashinfer/issues/920'],
});
