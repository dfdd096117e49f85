import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'nvml-driver-library-version-mismatch',
  title: 'NVIDIA kernel module and driver libraries at different versions',
  category: 'driver-cuda-mismatch',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy', 'llamacpp', 'ollama'],
  keywords: ['driver/library version mismatch', 'nvml/rm version mismatch', 'librmversionmismatch'],
  match: {
    message: /Driver\/library version mismatch|NVML\/RM version mismatch|NVMLError_LibRmVersionMismatch/,
  },
  explanation:
    'The NVIDIA kernel module that is loaded and the user-space driver libraries (libnvidia-ml, libcuda) are from ' +
    'different driver releases. This almost always follows a driver upgrade (often an unattended package update) ' +
    'without a reboot: the old module is still in memory while the new libraries are on disk.',
  fix: 'Reboot the machine so the new kernel module is loaded (or unload and reload the nvidia modules when no process uses the GPU)',
  action: [
    {
      kind: 'step',
      text: 'Reboot the machine so the new kernel module is loaded (or unload and reload the nvidia modules when no process uses the GPU); this shows the module loaded now:',
    },
    { kind: 'command', argv: ['cat', '/proc/driver/nvidia/version'], where: 'host' },
  ],
  alternative:
    'To stop it from happening again, hold the driver packages (apt-mark hold on the nvidia driver packages) and ' +
    'upgrade them only in a maintenance window.',
  references: [
    'https://github.com/NVIDIA/nvidia-container-toolkit/issues/394',
    'https://github.com/NVIDIA/ubuntu-packaging-nvidia-driver/issues/3',
  ],
});
