import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'nvidia-driver-libraries-missing',
  title: 'NVIDIA driver libraries not visible to the process',
  category: 'driver-cuda-mismatch',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy', 'llamacpp', 'ollama'],
  keywords: ['nvml shared library not found', 'libcuda.so', 'libnvidia-ml.so', 'found no nvidia driver'],
  match: {
    message:
      /NVML Shared Library Not Found|(?<![\w.-])lib(?:cuda|nvidia-ml)\.so[\d.]*: cannot open shared object file|Found no NVIDIA driver on your system/,
  },
  explanation:
    "The process cannot load the NVIDIA driver's user-space libraries (libcuda.so.1, libnvidia-ml.so.1), so it " +
    'sees no GPU at all: vLLM then falls back to "UnspecifiedPlatform" and fails later with unrelated-looking ' +
    'errors. In containers this means the NVIDIA container runtime did not inject the driver (no --gpus, no ' +
    'nvidia runtimeClass or device plugin on Kubernetes); on a host, that the driver is not installed or not loaded.',
  fix: 'Run the container with the GPU runtime: docker run --gpus all ... (on Kubernetes, request nvidia.com/gpu and use the nvidia runtimeClass), then check that nvidia-smi works inside it',
  action: [
    {
      kind: 'step',
      text: 'Run the container with the GPU runtime (docker run --gpus all; on Kubernetes request nvidia.com/gpu with the nvidia runtimeClass), then check that this works inside it:',
    },
    { kind: 'command', argv: ['nvidia-smi'], where: 'server' },
  ],
  alternative:
    'On a bare host, install or reload the NVIDIA driver (nvidia-smi must work) and make sure libcuda.so.1 is in ' +
    'the loader path (ldconfig -p | grep libcuda).',
  references: ['https://github.com/vllm-project/vllm/issues/23935'],
  // A debug line on machines without NVIDIA GPUs too: let a real error elsewhere win.
  weight: 0.6,
});
