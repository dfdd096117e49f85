import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'cuda-driver-symbol-missing',
  title: 'a CUDA driver function is missing: driver older than the build',
  category: 'driver-cuda-mismatch',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy'],
  keywords: ['undefined symbol: cu'],
  match: {
    // Driver API functions are plain C names (cuTensorMapEncodeTiled, cuGetProcAddress_v2), not C++ ones.
    message: /(?<lib>[\w.-]+\.so)\b[^\n]*?undefined symbol: (?<symbol>cu[A-Z]\w+)/,
  },
  explanation:
    '{lib} calls {symbol}, a function of the CUDA driver (libcuda) that the installed NVIDIA driver does not have: ' +
    'the extension was built for a newer CUDA than the driver supports. It looks like a broken build, but the ' +
    'driver is what is too old; look for a "driver on your system is too old" line nearby.',
  fix: 'Upgrade the NVIDIA driver to one that supports the CUDA version the package was built with (nvidia-smi shows the highest CUDA the current driver supports)',
  action: [
    { kind: 'step', text: 'Check the highest CUDA the current driver supports (top right of this):' },
    { kind: 'command', argv: ['nvidia-smi'], where: 'host' },
    {
      kind: 'step',
      text: 'and upgrade the NVIDIA driver to one that supports the CUDA version the package was built with',
    },
  ],
  alternative: 'Or install the package build made for an older CUDA (a +cu118 wheel, an older image tag).',
  references: ['https://github.com/vllm-project/vllm/issues/11623'],
  // Usually a symptom of nvidia-driver-too-old, which names the versions.
  weight: 0.3,
});
