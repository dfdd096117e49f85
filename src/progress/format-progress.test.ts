import { describe, expect, it } from 'vitest';
import { formatDuration, formatProgressLine, groupDigits } from './format-progress.js';
import { createProgressTracker } from './track-progress.js';

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [400, '0.4s'],
    [45_000, '45s'],
    [531_000, '8m51s'],
    [3_720_000, '1h02m'],
    [-5, '0s'],
  ])('%d ms → %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe('groupDigits', () => {
  it.each([0, 7, 999, 1000, 12_345, 421_888, 1_000_000, 987_654_321, -1234, -999, 2 ** 53 - 1, 1.5, 1e21])(
    '%s as toLocaleString("en-US") writes it',
    (n) => {
      expect(groupDigits(n)).toBe(n.toLocaleString('en-US'));
    },
  );
});

describe('formatProgressLine', () => {
  it('shows the phase, its facts, the elapsed time and the ETA', () => {
    const tracker = createProgressTracker({ engine: 'vllm' });
    tracker.push('Loading safetensors checkpoint shards:  21% Completed | 3/14 [00:01<00:05,  1.86it/s]', 10);
    expect(formatProgressLine(tracker.state(), 62_000, 469_000)).toBe(
      'loading weights · shard 3/14 · 1m02s · ETA 7m49s',
    );
  });

  it('says when the start takes longer than the earlier ones', () => {
    const tracker = createProgressTracker({ engine: 'vllm' });
    expect(formatProgressLine(tracker.state(), 5_000, 0)).toBe('starting vllm · 5s · ETA overdue');
  });
});
