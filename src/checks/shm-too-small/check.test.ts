import { describe, expect, it } from 'vitest';
import { makeContext } from '../../../test/check/helpers/make-context.js';
import check from './check.js';

const MiB = 1024 ** 2;

describe('shm-too-small', () => {
  it.each([
    [64 * MiB, 4, ['error']],
    [64 * MiB, null, ['warning']],
    [512 * MiB, 2, ['error']],
    [512 * MiB, 1, []],
    [16 * 1024 * MiB, 8, []],
  ])('%d bytes with --tp %s', (totalBytes, tensorParallelSize, severities) => {
    const sharedMemory = { path: '/dev/shm', totalBytes, freeBytes: totalBytes };
    expect(check.run(makeContext([], { sharedMemory, tensorParallelSize })).map((p) => p.severity)).toEqual(
      severities,
    );
  });
});
