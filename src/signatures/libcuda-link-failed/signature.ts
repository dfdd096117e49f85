import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'libcuda-link-failed',
  title: 'kernel build cannot link against libcuda',
  category: 'kernel-compile',
  engines: ['vllm', 'sglang', 'trtllm'],
  keywords: ['cannot find -lcuda', 'returned non-zero exit status', 'ninja build failed'],
  match: {
    // The linker's line is the candidate inside a ninja build; Triton prints it before its CalledProcessError.
    message: /cannot find -lcuda\b|returned non-zero exit status|Ninja build failed/,
    context: /cannot find -lcuda\b/,
  },
  explanation:
    "A kernel compiled at start-up (a flashinfer JIT module, Triton's launcher helper, DeepGEMM) is linked with " +
    '-lcuda, and the linker found no libcuda.so. The driver installs only the versioned libcuda.so.1; the plain ' +
    "libcuda.so symlink comes from the CUDA toolkit's stubs or a -dev package, and slim runtime images and " +
    'containers often have neither on the linker path.',
  fix: 'ln -s /usr/lib/x86_64-linux-gnu/libcuda.so.1 /usr/lib/x86_64-linux-gnu/libcuda.so (use the directory where ldconfig -p | grep libcuda.so.1 finds it), or export LIBRARY_PATH=/usr/local/cuda/lib64/stubs',
  action: [
    {
      kind: 'step',
      text: 'Give the linker a libcuda.so: link it next to libcuda.so.1 (ldconfig -p | grep libcuda.so.1 finds the directory), or use the CUDA stubs:',
    },
    { kind: 'environment-variable', name: 'LIBRARY_PATH', value: '/usr/local/cuda/lib64/stubs' },
  ],
  alternative:
    'For flashinfer, installing the prebuilt kernels avoids compiling at all: pip install flashinfer-cubin ' +
    'flashinfer-jit-cache at the same version as flashinfer-python. Triton also honours TRITON_LIBCUDA_PATH.',
  references: ['https://github.com/vllm-project/vllm/pull/26799'],
});
