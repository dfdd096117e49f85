import type { GpuDevice } from './parse-nvidia-smi.js';

/**
 * vLLM refuses to start when free memory is below total × gpu_memory_utilization (0.9 by default in older
 * releases, 0.92 in newer ones). The stricter older default would also fail, so 0.92 decides "held".
 */
export const GPU_MEMORY_UTILIZATION = 0.92;

/** MiB the engine would want free on this device; null when the device does not report memory. */
export function requiredFreeMiB(device: GpuDevice): number | null {
  return device.memoryTotalMiB === null ? null : device.memoryTotalMiB * GPU_MEMORY_UTILIZATION;
}

/** True when something else holds more memory than the engine can spare on this device. */
export function isMemoryHeld(device: GpuDevice): boolean {
  const required = requiredFreeMiB(device);
  if (required === null || device.memoryUsedMiB === null || device.memoryTotalMiB === null) return false;
  return device.memoryTotalMiB - device.memoryUsedMiB < required;
}
