import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'triton-helper-build-failed',
  title: "Triton's C helper failed to compile",
  category: 'kernel-compile',
  engines: ['sglang', 'vllm', 'trtllm'],
  keywords: ['returned non-zero exit status'],
  match: {
    // Triton compiles main.c / cuda_utils.c / __triton_launcher.c with the system C compiler on first use.
    message:
      /Command '\['[^']*\b(?:gcc|cc|clang|tcc\.exe)', '[^']*(?:main|cuda_utils|__triton_launcher)\.c'[^\n]*returned non-zero exit status (?<status>\d+)/,
  },
  explanation:
    'Triton builds a small C helper (cuda_utils / the kernel launcher) with the system compiler the first time a ' +
    'Triton kernel runs, linking it against libcuda and the Python headers, and that compile failed. The compiler ' +
    'output was printed earlier or swallowed; the usual causes are a missing Python.h (no python3-dev), no ' +
    'libcuda.so on the linker path, or no working gcc. SGLang reports it as "Ignore import error when loading" a ' +
    'model module, which then surfaces as an unsupported architecture.',
  fix: 'apt-get install -y build-essential python3-dev, and make sure libcuda.so is on the linker path (ln -s libcuda.so.1 libcuda.so in the driver library directory)',
  action: [
    { kind: 'system-package', packages: ['build-essential', 'python3-dev'] },
    {
      kind: 'step',
      text: 'and make sure libcuda.so is on the linker path (a libcuda.so link beside libcuda.so.1 in the driver library directory)',
    },
  ],
  alternative:
    'Run the failing gcc command from the message by hand to see the compiler error; TRITON_LIBCUDA_PATH points ' +
    'Triton at the directory holding libcuda.so.1.',
  references: ['https://github.com/sgl-project/sglang/issues/4253'],
  // When the compiler's own error is in view, python-dev-headers-missing or libcuda-link-failed names it.
  weight: 0.8,
});
