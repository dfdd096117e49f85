import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { parseDuration } from '../../src/supervision/parse-duration.js';

describe('parseDuration', () => {
  it.each([
    ['2s', 2000],
    ['500ms', 500],
    ['10m', 600_000],
    ['1h30m', 5_400_000],
    ['90', 90_000],
    ['1.5s', 1500],
  ])('%s → %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', 'soon', '10 minutes', '5x', '-1s'])('refuses %j with the grammar', (text) => {
    expect(() => parseDuration(text, '--timeout')).toThrow(UsageError);
    expect(() => parseDuration(text, '--timeout')).toThrow(/--timeout .* e\.g\. 90s, 10m, 1h30m/);
  });
});
