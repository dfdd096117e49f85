import { describe, expect, it } from 'vitest';
import { ConsoleCopyFilter } from './console-copy-filter.js';

describe('ConsoleCopyFilter', () => {
  it('keeps each event once from a CloudWatch console copy', () => {
    const filter = new ConsoleCopyFilter();
    const lines = [
      'GatedRepoError: 401',
      '',
      'Copy',
      'GatedRepoError: 401',
      '2024-03-28T01:20:32.907Z',
      'Repo model is gated.',
      '',
      'Copy',
      'Repo model is gated.',
    ];
    expect(lines.filter((line) => !filter.skips(line))).toEqual([
      'GatedRepoError: 401',
      '',
      'Repo model is gated.',
    ]);
  });

  it('keeps an ordinary log whole, repeated lines and blank lines included', () => {
    const filter = new ConsoleCopyFilter();
    const lines = ['a', 'a', '', 'b'];
    expect(lines.filter((line) => !filter.skips(line))).toEqual(lines);
  });
});
