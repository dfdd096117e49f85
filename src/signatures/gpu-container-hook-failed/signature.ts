import { defineSignature } from '../define-signature.js';

// The NVIDIA Container Toolkit's hook is what gives a container its GPUs: docker's `--gpus` asks for it, and
// when it is missing or finds no driver on the host, the container never starts (the engine logs nothing).
export default defineSignature({
  id: 'gpu-container-hook-failed',
  title: 'the container could not be given its GPUs (NVIDIA Container Toolkit)',
  category: 'driver-cuda-mismatch',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy', 'llamacpp', 'ollama'],
  keywords: ['nvidia-container-cli', 'could not select device driver'],
  match: {
    exception: null,
    message:
      /nvidia-container-cli: (?:initialization error|detection error|mount error|ldcache error)|could not select device driver "[^"]*" with capabilities: \[\[gpu\]\]/,
  },
  explanation:
    'The container was asked for GPUs (`--gpus`, a GPU request in compose or Kubernetes), but the NVIDIA ' +
    'Container Toolkit, the hook that hands GPUs to a container, is not installed or not registered with ' +
    'the container runtime, or it found no working driver on the host (the driver is not loaded, or ' +
    'libnvidia-ml.so.1 is missing). The container never started: the server printed nothing.',
  fix: 'On the host: check that nvidia-smi works, install the NVIDIA Container Toolkit, register it with `nvidia-ctk runtime configure --runtime=docker` and restart the container runtime',
  action: [
    { kind: 'step', text: 'Check that the NVIDIA driver works on the host:' },
    { kind: 'command', argv: ['nvidia-smi'], where: 'host' },
    {
      kind: 'step',
      text: 'If the driver works on the host, install the NVIDIA Container Toolkit there and register it with the container runtime, then restart the runtime:',
    },
    { kind: 'command', argv: ['nvidia-ctk', 'runtime', 'configure', '--runtime=docker'], where: 'host' },
    { kind: 'command', argv: ['systemctl', 'restart', 'docker'], where: 'host' },
  ],
  alternative:
    'If nvidia-smi fails on the host, the driver itself is missing or not loaded: install it (or load the module) before anything else.',
  references: [
    'https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html',
    'https://github.com/NVIDIA/nvidia-container-toolkit/issues/260',
  ],
});
