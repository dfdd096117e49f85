import { describe, expect, it } from 'vitest';
import { parseGpuRows, parseProcessRows } from './parse-nvidia-smi.js';

describe('parseGpuRows', () => {
  it('reads name, compute capability, driver and memory', () => {
    const text = 'NVIDIA H200, 9.0, 570.133.20, 1024, 143771\nNVIDIA H200, 9.0, 570.133.20, 0, 143771\n';
    expect(parseGpuRows(text, true)).toEqual([
      {
        index: 0,
        name: 'NVIDIA H200',
        computeCapability: '9.0',
        driverVersion: '570.133.20',
        memoryUsedMiB: 1024,
        memoryTotalMiB: 143771,
      },
      {
        index: 1,
        name: 'NVIDIA H200',
        computeCapability: '9.0',
        driverVersion: '570.133.20',
        memoryUsedMiB: 0,
        memoryTotalMiB: 143771,
      },
    ]);
  });

  it('reads rows without compute_cap (470 drivers) and [N/A] memory (GB10)', () => {
    expect(parseGpuRows('Tesla K80, 470.256.02, [N/A], [N/A]\n', false)).toEqual([
      {
        index: 0,
        name: 'Tesla K80',
        computeCapability: null,
        driverVersion: '470.256.02',
        memoryUsedMiB: null,
        memoryTotalMiB: null,
      },
    ]);
  });
});

describe('parseProcessRows', () => {
  it('reads pid, name and memory, skipping the empty-list line', () => {
    expect(parseProcessRows('4242, VLLM::EngineCore, 70000\n')).toEqual([
      { pid: 4242, name: 'VLLM::EngineCore', usedMemoryMiB: 70000 },
    ]);
    expect(parseProcessRows('No running processes found\n')).toEqual([]);
  });
});
