import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'no-cuda-device-visible',
  title: 'no GPU visible to the process',
  category: 'driver-cuda-mismatch',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy', 'llamacpp', 'ollama'],
  keywords: ['no cuda gpus are available', 'no cuda-capable device is detected', 'cudaerrornodevice'],
  match: {
    message: /No CUDA GPUs are available|no CUDA-capable device is detected|cudaErrorNoDevice/,
  },
  explanation:
    'CUDA works but sees no GPU. Either CUDA_VISIBLE_DEVICES hides them (empty, or indices or UUIDs that do not ' +
    'exist inside this container), or the container was started without GPUs (no --gpus / no nvidia.com/gpu ' +
    'request), or the driver lost the device (nvidia-smi shows it missing or in an error state).',
  fix: 'Run nvidia-smi -L inside the same container or environment and echo $CUDA_VISIBLE_DEVICES; start the container with --gpus all (Kubernetes: request nvidia.com/gpu) and unset or correct CUDA_VISIBLE_DEVICES',
  action: [
    { kind: 'step', text: 'Check what the server’s environment sees (and its CUDA_VISIBLE_DEVICES):' },
    { kind: 'command', argv: ['nvidia-smi', '-L'], where: 'server' },
    {
      kind: 'step',
      text: 'start the container with --gpus all (Kubernetes: request nvidia.com/gpu) and unset or correct CUDA_VISIBLE_DEVICES',
    },
  ],
  alternative:
    'If nvidia-smi lists no GPU on the host either, check dmesg for NVIDIA Xid errors and reload the driver or reboot.',
  references: ['https://github.com/NVIDIA/nvidia-container-toolkit/issues/394'],
  // A driver line that says why (NVML version mismatch, library missing) is the better root cause.
  weight: 0.5,
});
