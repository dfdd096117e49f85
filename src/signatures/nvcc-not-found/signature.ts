import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'nvcc-not-found',
  title: 'CUDA compiler (nvcc) not found for kernels compiled at start-up',
  category: 'kernel-compile',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy'],
  keywords: [
    'could not find nvcc',
    'cuda_home environment variable is not set',
    'nvcc: not found',
    'nvcc: command not found',
  ],
  match: {
    message:
      /Could not find nvcc and default cuda_home='(?<home>[^']*)' doesn't exist|CUDA_HOME environment variable is not set|nvcc: (?:command )?not found/,
  },
  explanation:
    'A kernel has to be compiled on this machine at start-up (a flashinfer JIT module such as its sampler, ' +
    'DeepGEMM, a torch extension) and that needs nvcc from the CUDA toolkit. The driver and the pip CUDA runtime ' +
    'wheels are enough to run kernels, not to build them, and runtime images have no toolkit.',
  fix: 'Install the CUDA toolkit matching torch.version.cuda and point CUDA_HOME at it (export CUDA_HOME=/usr/local/cuda), or pip install nvidia-cuda-nvcc-cu12 and set CUDA_HOME to its directory',
  action: [
    {
      kind: 'step',
      text: 'Install the CUDA toolkit matching torch.version.cuda and point CUDA_HOME at it (/usr/local/cuda), or:',
    },
    { kind: 'install', requirements: ['nvidia-cuda-nvcc-cu12'] },
    { kind: 'step', text: 'and set CUDA_HOME to its directory' },
  ],
  alternative:
    'Avoid the build: for flashinfer, pip install flashinfer-cubin flashinfer-jit-cache at the same version as ' +
    'flashinfer-python; in vLLM, VLLM_USE_FLASHINFER_SAMPLER=0 skips the flashinfer sampler.',
  references: ['https://github.com/vllm-project/vllm/pull/26799'],
});
