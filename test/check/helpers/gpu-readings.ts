import type { GpuDevice, GpuProcess } from '../../../src/environment/parse-nvidia-smi.js';
import type { GpuReading } from '../../../src/environment/read-gpu.js';

/** An nvidia-smi reading of `count` identical GPUs. */
export function gpuReading(
  device: Partial<GpuDevice> = {},
  count = 1,
  processes: GpuProcess[] = [],
): GpuReading {
  const gpus = Array.from({ length: count }, (_, index) => ({
    index,
    name: 'NVIDIA H200',
    computeCapability: '9.0',
    driverVersion: '580.65.06',
    memoryUsedMiB: 0,
    memoryTotalMiB: 143771,
    ...device,
  }));
  return { status: 'ok', gpus, processes };
}
