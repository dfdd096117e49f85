import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SkippedSpan } from './skipped-span.js';

/** `text` as a block, with the span [from, to) the scanner would hand over: whole lines. */
function spanIn(text: string, skipLines: number, keepLines: number, count: number, maxLineLength = 1000) {
  const block = Buffer.from(text, 'utf8');
  const lineStarts = [0];
  for (let i = 0; i < block.length; i++) if (block[i] === 0x0a) lineStarts.push(i + 1);
  const from = lineStarts[skipLines] as number;
  const to = lineStarts[skipLines + keepLines] as number;
  return { block, span: new SkippedSpan(block, from, to, count, maxLineLength) };
}

describe('SkippedSpan', () => {
  it.each([
    {
      name: 'the last two of three lines',
      text: 'a\nbb\nccc\n',
      skip: 0,
      keep: 3,
      count: 2,
      lines: ['bb', 'ccc'],
    },
    {
      name: 'a span after other lines',
      text: 'x\ny\nab\ncd\nz\n',
      skip: 2,
      keep: 2,
      count: 5,
      lines: ['ab', 'cd'],
    },
    { name: 'empty lines', text: '\n\nq\n\n', skip: 0, keep: 4, count: 3, lines: ['', 'q', ''] },
    {
      name: 'a span at the block start',
      text: 'first\nsecond\n',
      skip: 0,
      keep: 1,
      count: 1,
      lines: ['first'],
    },
    { name: 'UTF-8 across bytes', text: 'ü€\n日本\n', skip: 0, keep: 2, count: 2, lines: ['ü€', '日本'] },
  ])('reads the last lines of the span: $name', ({ text, skip, keep, count, lines }) => {
    expect(spanIn(text, skip, keep, count).span.read()).toEqual(lines);
  });

  it('cuts a line to the longest kept', () => {
    expect(spanIn('abcdef\nxy\n', 0, 2, 2, 4).span.read()).toEqual(['abcd', 'xy']);
  });

  it('once detached, reads the same lines after its block is written again', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ unit: 'binary', maxLength: 30 }).map((line) => line.replace(/\n/g, '')),
          {
            minLength: 1,
            maxLength: 60,
          },
        ),
        fc.nat(),
        fc.integer({ min: 1, max: 40 }),
        (lines, skipSeed, count) => {
          const skip = skipSeed % lines.length;
          const keep = lines.length - skip;
          const { block, span } = spanIn(`${lines.join('\n')}\n`, skip, keep, Math.min(count, keep), 20);
          const before = span.read();
          span.detach();
          block.fill(0x0a);
          expect(span.read()).toEqual(before);
        },
      ),
    );
  });

  it('reads a span with lines longer than it copies at once when detached', () => {
    const long = 'x'.repeat(40_000);
    const { block, span } = spanIn(`${long}\nshort\n`, 0, 2, 2, 64 * 1024);
    span.detach();
    block.fill(0x20);
    expect(span.read()).toEqual([long, 'short']);
  });
});
