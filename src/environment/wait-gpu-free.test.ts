import { describe, expect, it } from 'vitest';
import type { GpuDevice } from './parse-nvidia-smi.js';
import type { GpuReading } from './read-gpu.js';
import { waitGpuFree } from './wait-gpu-free.js';

const device = (used: number): GpuDevice => ({
  index: 0,
  name: 'NVIDIA H200',
  computeCapability: '9.0',
  driverVersion: '580.65.06',
  memoryUsedMiB: used,
  memoryTotalMiB: 143771,
});

/** A fake clock and a sequence of readings, one per poll. */
function fake(readings: GpuReading[]): { options: Parameters<typeof waitGpuFree>[1]; polls: () => number } {
  let now = 0;
  let polls = 0;
  return {
    options: {
      readGpu: () =>
        Promise.resolve(readings[Math.min(polls++, readings.length - 1)] ?? { status: 'absent' }),
      sleep: (ms) => {
        now += ms;
        return Promise.resolve();
      },
      now: () => now,
      pollMs: 1000,
    },
    polls: () => polls,
  };
}

describe('waitGpuFree', () => {
  it('returns as soon as the memory is released', async () => {
    const held: GpuReading = {
      status: 'ok',
      gpus: [device(70_000)],
      processes: [{ pid: 1, name: 'VLLM::EngineCore', usedMemoryMiB: 70_000 }],
    };
    const free: GpuReading = { status: 'ok', gpus: [device(300)], processes: [] };
    const { options, polls } = fake([held, held, free]);
    await expect(waitGpuFree(10, options)).resolves.toMatchObject({ outcome: 'free', waitedMs: 2000 });
    expect(polls()).toBe(3);
  });

  it('gives up after the given seconds', async () => {
    const held: GpuReading = { status: 'ok', gpus: [device(70_000)], processes: [] };
    const { options } = fake([held]);
    await expect(waitGpuFree(3, options)).resolves.toMatchObject({ outcome: 'timeout', waitedMs: 3000 });
  });

  it('does not wait where there is no GPU', async () => {
    const { options, polls } = fake([{ status: 'absent' }]);
    await expect(waitGpuFree(60, options)).resolves.toMatchObject({ outcome: 'no-gpu', waitedMs: 0 });
    expect(polls()).toBe(1);
  });
});
