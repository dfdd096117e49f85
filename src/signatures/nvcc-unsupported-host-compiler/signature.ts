import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'nvcc-unsupported-host-compiler',
  title: 'host compiler newer than nvcc supports',
  category: 'kernel-compile',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy', 'llamacpp'],
  keywords: ['unsupported gnu version', 'unsupported clang version'],
  match: {
    message:
      /unsupported (?<compiler>GNU|clang) version! (?:gcc|clang) versions later than (?<max>\d+) are not supported/,
  },
  explanation:
    'nvcc compiles the host side of CUDA code with the system C++ compiler and refuses {compiler} versions newer ' +
    'than it was tested with: this CUDA toolkit accepts up to version {max}. Kernels built at start-up (or a ' +
    'source build) fail on rolling or new distributions whose default gcc moved past that.',
  fix: 'Install a supported compiler and point nvcc at it: apt-get install -y g++-{max} && export CUDAHOSTCXX=/usr/bin/g++-{max} (for builds that read it: export NVCC_CCBIN=/usr/bin/g++-{max})',
  action: [
    { kind: 'step', text: 'Install a compiler nvcc supports and point nvcc at it:' },
    { kind: 'system-package', packages: ['g++-{max}'] },
    { kind: 'environment-variable', name: 'CUDAHOSTCXX', value: '/usr/bin/g++-{max}' },
    { kind: 'step', text: '(builds that read NVCC_CCBIN: the same path there)' },
  ],
  alternative:
    'Or upgrade the CUDA toolkit to a release that supports your compiler; -allow-unsupported-compiler in ' +
    'NVCC_APPEND_FLAGS skips the check at your own risk.',
  references: ['https://github.com/flashinfer-ai/flashinfer/issues/920'],
});
