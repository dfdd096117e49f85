import { describe, expect, it } from 'vitest';
import { makeContext } from '../../../test/check/helpers/make-context.js';
import check from './check.js';

const GiB = 1024 ** 3;

describe('disk-space-low', () => {
  it.each([
    [0.5 * GiB, ['error']],
    [5 * GiB, ['warning']],
    [200 * GiB, []],
  ])('%d bytes free', (freeBytes, severities) => {
    const disk = { path: '/root/.cache/huggingface', totalBytes: 500 * GiB, freeBytes };
    expect(check.run(makeContext([], { disk })).map((p) => p.severity)).toEqual(severities);
  });
});
