import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'cuda-fabric-manager-not-running',
  title: 'CUDA system not yet initialized (NVSwitch fabric manager not running)',
  category: 'driver-cuda-mismatch',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy', 'llamacpp', 'ollama'],
  keywords: ['system not yet initialized', 'cudaerrorsystemnotready', 'error 802'],
  match: {
    message: /system not yet initialized|cudaErrorSystemNotReady|Error 802\b/,
  },
  explanation:
    'CUDA error 802 (cudaErrorSystemNotReady): on servers whose GPUs are linked by NVSwitch (HGX/DGX A100, H100, ' +
    'H200, B200) CUDA refuses to start until the NVIDIA Fabric Manager service has configured the switch fabric. The ' +
    'service is not running, failed, or its version differs from the driver (typically after a driver upgrade ' +
    'without a matching fabric manager package or a reboot).',
  fix: 'On the host: `systemctl status nvidia-fabricmanager`, install the nvidia-fabricmanager package of exactly the driver version (`nvidia-smi` shows it), then `systemctl enable --now nvidia-fabricmanager` and retry.',
  action: [
    {
      kind: 'step',
      text: 'On the host, install the nvidia-fabricmanager package of exactly the driver version nvidia-smi shows, then start it and retry:',
    },
    { kind: 'command', argv: ['systemctl', 'enable', '--now', 'nvidia-fabricmanager'], where: 'host' },
  ],
  alternative:
    '`nvidia-smi -q | grep -A2 Fabric` shows the fabric state per GPU; if the service runs but the state stays ' +
    '"In Progress" or "Failed", reboot the node after aligning driver and fabric manager versions.',
  references: [
    'https://docs.nvidia.com/datacenter/tesla/fabric-manager-user-guide/index.html',
    'https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html',
  ],
});
