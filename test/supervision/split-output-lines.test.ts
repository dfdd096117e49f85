import { describe, expect, it } from 'vitest';
import { OutputLineSplitter } from '../../src/supervision/split-output-lines.js';

function split(chunks: (string | Uint8Array)[]): string[] {
  const splitter = new OutputLineSplitter();
  return [...chunks.flatMap((chunk) => splitter.push(chunk)), ...splitter.end()];
}

describe('OutputLineSplitter', () => {
  it.each([
    ['LF', ['a\nb\n'], ['a', 'b']],
    ['CRLF', ['a\r\nb\r\n'], ['a', 'b']],
    ['a CRLF split across chunks', ['a\r', '\nb\n'], ['a', 'b']],
    [
      'tqdm redraws with lone CR',
      ['shards: 1/4\rshards: 2/4\rshards: 4/4\n'],
      ['shards: 1/4', 'shards: 2/4', 'shards: 4/4'],
    ],
    [
      'a line across chunks',
      ['Loading wei', 'ghts took 1.2 seconds\n'],
      ['Loading weights took 1.2 seconds'],
    ],
    ['a last line without newline', ['a\nb'], ['a', 'b']],
    ['an empty line kept', ['a\n\nb\n'], ['a', '', 'b']],
  ])('%s', (_name, chunks, lines) => {
    expect(split(chunks)).toEqual(lines);
  });

  it('keeps a UTF-8 character split between chunks', () => {
    const bytes = Buffer.from('GPU ✓ ready\n');
    expect(split([bytes.subarray(0, 5), bytes.subarray(5)])).toEqual(['GPU ✓ ready']);
  });

  it('cuts a runaway line into bounded pieces', () => {
    const lines = split(['x'.repeat(200_000)]);
    expect(lines.every((line) => line.length <= 64 * 1024)).toBe(true);
    expect(lines.join('')).toHaveLength(200_000);
  });
});
