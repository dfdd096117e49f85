import { describe, expect, it } from 'vitest';
import { makeContext } from '../../../test/check/helpers/make-context.js';
import { gpuReading } from '../../../test/check/helpers/gpu-readings.js';
import check from './check.js';

describe('gpu-unavailable', () => {
  it.each([
    ['no nvidia-smi', { status: 'absent' } as const, false, ['info']],
    ['no nvidia-smi with --gpu', { status: 'absent' } as const, true, ['error']],
    [
      'nvidia-smi failing',
      { status: 'failed', reason: 'NVIDIA-SMI has failed' } as const,
      false,
      ['warning'],
    ],
    [
      'nvidia-smi failing with --gpu',
      { status: 'failed', reason: 'NVIDIA-SMI has failed' } as const,
      true,
      ['error'],
    ],
    ['a GPU', gpuReading(), true, []],
  ])('%s', (_name, gpu, gpuRequired, severities) => {
    expect(check.run(makeContext([], { gpu, gpuRequired })).map((p) => p.severity)).toEqual(severities);
  });
});
