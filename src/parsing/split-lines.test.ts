import { describe, expect, it } from 'vitest';
import { LineSplitter } from './split-lines.js';

function split(chunks: (string | Uint8Array)[], max = 100): { lines: string[]; cut: number } {
  const lines: string[] = [];
  const splitter = new LineSplitter((line) => lines.push(line), max);
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return { lines, cut: splitter.truncatedLines };
}

describe('LineSplitter', () => {
  it.each([
    ['LF', ['a\nb\n'], ['a', 'b']],
    ['CRLF', ['a\r\nb\r\n'], ['a', 'b']],
    ['lone CR (progress bars)', ['10%\r20%\rdone\n'], ['10%', '20%', 'done']],
    ['CRLF split across chunks', ['a\r', '\nb'], ['a', 'b']],
    ['no final newline', ['a\nb'], ['a', 'b']],
    ['line across chunks', ['ab', 'cd\ne'], ['abcd', 'e']],
    ['empty input', [''], []],
  ])('%s', (_name, chunks, expected) => {
    expect(split(chunks).lines).toEqual(expected);
  });

  it('keeps a multi-byte character split across byte chunks whole', () => {
    const bytes = new TextEncoder().encode('ü\n');
    expect(split([bytes.subarray(0, 1), bytes.subarray(1)]).lines).toEqual(['ü']);
  });

  it('passes a long line on in pieces when asked to split', () => {
    const lines: string[] = [];
    const splitter = new LineSplitter((line) => lines.push(line), 100, { longLines: 'split' });
    for (const chunk of ['x'.repeat(150), 'y'.repeat(100), '\nz'.repeat(1), 'w'.repeat(230) + '\n'])
      splitter.push(chunk);
    splitter.end();
    expect(lines).toEqual([
      'x'.repeat(100),
      'x'.repeat(50) + 'y'.repeat(50),
      'y'.repeat(50),
      'z' + 'w'.repeat(99),
      'w'.repeat(100),
      'w'.repeat(31),
    ]);
    expect(splitter.truncatedLines).toBe(0);
  });

  it('cuts a line past the limit and counts it', () => {
    const { lines, cut } = split(['x'.repeat(250), 'y'.repeat(250), '\nshort\n'], 100);
    expect(lines).toEqual(['x'.repeat(100), 'short']);
    expect(cut).toBe(1);
  });
});
