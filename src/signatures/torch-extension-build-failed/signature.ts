import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'torch-extension-build-failed',
  title: 'a CUDA/C++ extension failed to compile at start-up',
  category: 'kernel-compile',
  engines: ['vllm', 'sglang', 'lmdeploy', 'trtllm', 'tgi'],
  keywords: ['error building extension', "command '['ninja'", 'ninja build failed'],
  match: {
    // torch.utils.cpp_extension's wrapper, the ninja call under it, and flashinfer/vLLM's JIT wrapper.
    message: /Error building extension '(?<ext>[^'\n]+)'|Command '\['ninja'|Ninja build failed/,
  },
  explanation:
    'Some kernels are compiled on this machine the first time they are needed (torch.utils.cpp_extension, flashinfer ' +
    'and DeepGEMM JIT, Triton helpers), and the compiler or linker failed. The line that says why is the first ' +
    '"error:" or "FAILED:" line of the ninja output above the traceback; this log shows only the summary.',
  fix:
    'Rerun with the build output visible (`MAX_JOBS=1`, and `TORCH_EXTENSIONS_DIR`/`~/.cache/flashinfer` cleared) and ' +
    'fix the first compiler error: usually a missing CUDA toolkit (`nvcc`), Python headers (`python3-dev`) or a host ' +
    'compiler nvcc does not support.',
  action: [
    {
      kind: 'step',
      text: 'Rerun with the build output readable (one job at a time, TORCH_EXTENSIONS_DIR and ~/.cache/flashinfer cleared) and fix the first compiler error: usually a missing CUDA toolkit (nvcc), Python headers (python3-dev) or a host compiler nvcc does not support:',
    },
    { kind: 'environment-variable', name: 'MAX_JOBS', value: '1' },
  ],
  alternative:
    'Avoid the JIT build: install the prebuilt wheel for your CUDA and torch version (e.g. flashinfer-jit-cache, or ' +
    "the engine's Docker image), or pick a backend that needs no compilation.",
  references: [
    'https://github.com/pytorch/pytorch/blob/main/torch/utils/cpp_extension.py',
    'https://github.com/flashinfer-ai/flashinfer/blob/main/flashinfer/jit/cpp_ext.py',
  ],
  // The summary of a build failure: any signature that reads the compiler's own line wins.
  weight: 0.2,
});
