import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'vllm-no-gpu-platform-detected',
  title: 'vLLM found no GPU platform',
  category: 'driver-cuda-mismatch',
  engines: ['vllm'],
  keywords: ['failed to infer device type', 'device string must not be empty'],
  match: {
    message: /Failed to infer device type|Device string must not be empty/,
  },
  explanation:
    'vLLM looked for CUDA, ROCm, XPU, TPU and CPU support at start-up, found none, and ran on ' +
    '"UnspecifiedPlatform", so creating the device fails. Most often the NVIDIA driver libraries are not visible ' +
    '(a container without the GPU runtime: NVML cannot be loaded); it also happens when vLLM runs from a source ' +
    'tree without package metadata, or a build for another platform is installed.',
  fix: 'Rerun with VLLM_LOGGING_LEVEL=DEBUG: the "Checking if CUDA platform is available" lines give the reason (e.g. NVML Shared Library Not Found means: start the container with --gpus all / the nvidia runtime)',
  action: [
    {
      kind: 'step',
      text: 'Rerun with debug logging: the "Checking if CUDA platform is available" lines give the reason (NVML Shared Library Not Found means: start the container with --gpus all / the nvidia runtime):',
    },
    { kind: 'environment-variable', name: 'VLLM_LOGGING_LEVEL', value: 'DEBUG', engines: ['vllm'] },
  ],
  alternative:
    'If nvidia-smi works in the same environment, reinstall vLLM from a wheel (pip install --force-reinstall vllm) so its package metadata is present.',
  references: [
    'https://github.com/vllm-project/vllm/issues/12847',
    'https://github.com/vllm-project/vllm/pull/14200',
  ],
  // The DEBUG line that names the reason, when logged, is the better root cause.
  weight: 0.3,
});
