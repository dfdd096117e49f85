import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'ptxas-too-old-for-gpu',
  title: 'ptxas does not know this GPU architecture (Triton / JIT kernels)',
  category: 'kernel-compile',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy'],
  keywords: ["is not defined for option 'gpu-name'"],
  match: {
    message: /ptxas fatal\s*: Value 'sm_(?<sm>\d+[af]?)' is not defined for option 'gpu-name'/,
  },
  explanation:
    'Triton (and other JIT compilers) turn their kernels into PTX and assemble it with ptxas for the GPU, here ' +
    'sm_{sm}. The ptxas used, usually the one bundled with the installed Triton, comes from a CUDA release that does ' +
    'not know this architecture: the GPU is newer than the toolchain (Blackwell sm_100/sm_103/sm_120 need CUDA 12.8 ' +
    'or 12.9), or, for old GPUs, the toolkit dropped it (CUDA 13 removed Maxwell and Pascal).',
  fix: 'Point Triton at a newer CUDA toolkit: `export TRITON_PTXAS_PATH=/usr/local/cuda/bin/ptxas` (CUDA 12.9+ for sm_103, 12.8+ for sm_100/sm_120), or upgrade torch and triton to builds that ship it.',
  action: [
    {
      kind: 'step',
      text: 'Point Triton at a newer CUDA toolkit’s ptxas (CUDA 12.9+ for sm_103, 12.8+ for sm_100/sm_120), or upgrade torch and triton to builds that ship it:',
    },
    { kind: 'environment-variable', name: 'TRITON_PTXAS_PATH', value: '/usr/local/cuda/bin/ptxas' },
  ],
  alternative:
    'Use the engine image built for this GPU generation (e.g. a CUDA 12.9 / 13 vLLM or SGLang image); --enforce-eager ' +
    'does not help when an attention or MoE backend compiles Triton kernels itself.',
  references: [
    'https://github.com/triton-lang/triton/issues/7964',
    'https://github.com/pytorch/pytorch/issues/163801',
  ],
});
