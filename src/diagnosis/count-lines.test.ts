import { describe, expect, it } from 'vitest';
import { countLines, loadBlock, nextSignOfDeath } from './signs-of-death.js';
import { SIGNS_OF_DEATH } from './knowledge/may-matter.js';
import { compileBlockSieve } from './search/block-sieve.js';

const SHORT = 'INFO a\n';
const LONG = `INFO ${'x'.repeat(300)}\n`;

/** Spans (whole lines), the longest line allowed: the count and long starts the sieve itself gives. */
const cases: { name: string; text: string; max: number }[] = [
  { name: 'no line', text: '', max: 100 },
  { name: 'one short line', text: SHORT, max: 100 },
  { name: 'short lines and empty ones', text: `${SHORT}\n\n${SHORT}${SHORT}\n`, max: 100 },
  { name: 'a long line among short ones', text: `${SHORT}${LONG}${SHORT}${LONG}`, max: 100 },
  { name: 'a line exactly at the limit', text: `${'y'.repeat(100)}\n${'z'.repeat(101)}\n`, max: 100 },
];

/** What the sieve answers: its count, and each line over `max` bytes by a line at a time. */
function bySieve(block: Buffer, max: number): { count: number; long: number[] } {
  const sieve = compileBlockSieve(SIGNS_OF_DEATH);
  const count = sieve.countLines(block, 0, block.length);
  const long: number[] = [];
  for (let start = 0; start < block.length;) {
    const lf = block.indexOf(0x0a, start);
    if (lf - start > max) long.push(start);
    start = lf + 1;
  }
  return { count, long };
}

describe('countLines', () => {
  // Run first in this file: the module's sieve is not built yet, so short spans are counted line by line.
  it.each(cases)('before the sieve is built, $name: as the sieve counts', ({ text, max }) => {
    const block = Buffer.from(`${SHORT}${text}`, 'latin1');
    const long: number[] = [];
    const count = countLines(block, SHORT.length, block.length, max, long, 1000);
    const expected = bySieve(Buffer.from(text, 'latin1'), max);
    expect(count).toBe(expected.count);
    expect(long).toEqual(expected.long.map((start) => start + SHORT.length + 1000));
  });

  it.each(cases)('after the sieve is built, $name: the same', ({ text, max }) => {
    const block = Buffer.from(`${SHORT}${text}`, 'latin1');
    loadBlock(block);
    nextSignOfDeath(block, 0);
    const long: number[] = [];
    const count = countLines(block, SHORT.length, block.length, max, long, 1000);
    const expected = bySieve(Buffer.from(text, 'latin1'), max);
    expect(count).toBe(expected.count);
    expect(long).toEqual(expected.long.map((start) => start + SHORT.length + 1000));
  });
});
