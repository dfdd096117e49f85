import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SIGNS_OF_DEATH } from '../knowledge/may-matter.js';
import {
  compileBlockSieve,
  createSharedMemory,
  READ_PAST,
  SIEVE_REGION_BYTES,
  type BlockSieve,
} from './block-sieve.js';

/** Where the first literal at or after `from` begins, by `indexOf` of each: the plain answer. */
function firstLiteral(text: string, literals: readonly string[], from: number): number {
  let first = -1;
  for (const literal of literals) {
    const at = text.indexOf(literal, from);
    if (at !== -1 && (first === -1 || at < first)) first = at;
  }
  return first;
}

/** Every literal start the sieve finds, walking on from each one as the scanner does. */
function allStarts(sieve: BlockSieve, block: Buffer, from = 0): number[] {
  const starts: number[] = [];
  for (let at = sieve.next(block, from); at !== -1; at = sieve.next(block, at + 1)) starts.push(at);
  return starts;
}

function plainStarts(text: string, literals: readonly string[], from = 0): number[] {
  const starts: number[] = [];
  for (let at = firstLiteral(text, literals, from); at !== -1; at = firstLiteral(text, literals, at + 1)) {
    starts.push(at);
  }
  return starts;
}

/** Every hit of a pass from `from`, walking on from each as the prescan does, with the lines before it. */
function passHits(sieve: BlockSieve, block: Buffer, from: number): [number, number][] {
  const hits: [number, number][] = [];
  sieve.startPass(block, from);
  for (let at = sieve.nextInPass(from); at !== -1; at = sieve.nextInPass(at + 1))
    hits.push([at, sieve.passLines]);
  return hits;
}

const simd = compileBlockSieve(SIGNS_OF_DEATH);
const plain = compileBlockSieve(SIGNS_OF_DEATH, { plain: true });

describe('compileBlockSieve', () => {
  it('runs the SIMD module here (Node 20+ on x86-64 and arm64 has it), plain loops when asked', () => {
    expect(simd.kind).toBe('simd');
    expect(plain.kind).toBe('plain');
  });

  it.each([
    ['nothing', 'all good here\n', []],
    ['both spellings of error, sharing a bucket', 'an error, an Error\n', [3, 13]],
    ['a literal at the very start and one at the very end', 'Traceback x ERROR', [0, 12]],
    ['a literal cut by the block end is none', 'x Tracebac', []],
    ['a fingerprint alone is no literal', 'Tra Err Exc CRI sys Seg Shu err\n', []],
    ['ERROR holds no Error', 'ERROR\n', [0]],
    ['systemd[ needs its bracket', 'systemd: x systemd[1]: y\n', [11]],
  ])('%s', (_, text, expected) => {
    const block = Buffer.from(text, 'latin1');
    expect(allStarts(simd, block)).toEqual(expected);
    expect(allStarts(plain, block)).toEqual(expected);
  });

  it('says which literal begins where, and which the last search found', () => {
    const block = Buffer.from('x Shutting down; error', 'latin1');
    for (const sieve of [simd, plain]) {
      expect(sieve.next(block, 3)).toBe(17);
      expect(SIGNS_OF_DEATH[sieve.literal]).toBe('error');
      expect(sieve.next(block, 18)).toBe(-1);
      expect(sieve.literal).toBe(-1);
    }
    expect(SIGNS_OF_DEATH[simd.literalAt(block, 2)]).toBe('Shutting down');
    expect(SIGNS_OF_DEATH[simd.literalAt(block, 17)]).toBe('error');
    expect(simd.literalAt(block, 3)).toBe(-1);
  });

  it('finds what indexOf finds, from any offset, on strings spelled from the literals', () => {
    const piece = fc.oneof(
      fc.constantFrom(...SIGNS_OF_DEATH, 'Tra', 'err', 'ERR', 'sys', 'Shut', '\n', ' '),
      fc.string({ maxLength: 6 }).map((s) => s.replace(/[^ -~\n\t]/g, 'x')),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), fc.nat(), (pieces, seed) => {
        const text = pieces.join('');
        const block = Buffer.from(text, 'latin1');
        const from = text.length === 0 ? 0 : seed % text.length;
        expect(allStarts(simd, block, from)).toEqual(plainStarts(text, SIGNS_OF_DEATH, from));
        expect(allStarts(plain, block, from)).toEqual(plainStarts(text, SIGNS_OF_DEATH, from));
      }),
      { numRuns: 400 },
    );
  });

  it('finds every literal when a block holds more candidates than one pass keeps', () => {
    // Every 16 bytes hold a candidate lane for each of `Tra`'s offsets: thousands per block.
    const text = 'TraTraTraTraTra Error\n'.repeat(3000);
    const block = Buffer.from(text, 'latin1');
    expect(allStarts(simd, block)).toEqual(plainStarts(text, SIGNS_OF_DEATH));
  });

  it('counts lines and measures the longest, in any span ending at a line start', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 70 }), { maxLength: 40 }), fc.nat(), (lengths, seed) => {
        const text = lengths.map((n) => 'x'.repeat(n) + '\n').join('');
        const block = Buffer.from(text, 'latin1');
        const starts = [0, ...lengths.map((_, i) => lengths.slice(0, i + 1).reduce((a, n) => a + n + 1, 0))];
        const from = starts[seed % starts.length] as number;
        const count = starts.filter((s) => s > from).length;
        const longest = Math.max(0, ...lengths.filter((_, i) => (starts[i] as number) >= from));
        expect(simd.countLines(block, from, block.length)).toBe(count);
        // A bound: at least the longest, and no more than a vector's lanes above it.
        expect(simd.longest).toBeGreaterThanOrEqual(longest);
        expect(simd.longest).toBeLessThanOrEqual(longest + 16);
        expect(plain.countLines(block, from, block.length)).toBe(count);
        expect(plain.longest).toBe(longest);
      }),
      { numRuns: 300 },
    );
  });

  it('searches a block larger than its memory first held', () => {
    const text = `${'x'.repeat(3 << 20)}\nCRITICAL\n`;
    const block = Buffer.from(text, 'latin1');
    expect(simd.next(block, 0)).toBe((3 << 20) | 1);
    expect(simd.countLines(block, 0, block.length)).toBe(2);
    expect(simd.longest - (3 << 20)).toBeLessThanOrEqual(16);
  });

  /** The newlines of `text` in [from, to), and its longest line from `from` (the last one unended too). */
  function plainLines(text: string, from: number, to = text.length): { count: number; longest: number } {
    const lines = text.slice(from).split('\n');
    return {
      count: text.slice(from, to).split('\n').length - 1,
      longest: Math.max(...lines.map((line) => line.length)),
    };
  }

  it('finds in a pass what next() finds, each hit with the newlines before it, and counts all of them', () => {
    const piece = fc.oneof(
      fc.constantFrom(...SIGNS_OF_DEATH, 'Tra', 'err', 'ERR', '\n', '\n\n', ' '),
      fc.string({ maxLength: 40 }).map((s) => s.replace(/[^ -~\t]/g, 'x')),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 80 }), fc.nat(), (pieces, seed) => {
        const text = pieces.join('');
        const block = Buffer.from(text, 'latin1');
        const lineStarts = [0, ...[...text.matchAll(/\n/g)].map((m) => m.index + 1)];
        const from = lineStarts[seed % lineStarts.length] as number;
        const expected = plainStarts(text, SIGNS_OF_DEATH, from).map((at) => [
          at,
          plainLines(text, from, at).count,
        ]);
        const { count, longest } = plainLines(text, from);
        for (const sieve of [simd, plain]) {
          expect(passHits(sieve, block, from)).toEqual(expected);
          expect(sieve.passLines).toBe(count);
          expect(sieve.passLongest).toBeGreaterThanOrEqual(longest);
          // A bound: a run of k vectors without a newline is 16 k bytes of one line, the bound 16 (k + 2).
          expect(sieve.passLongest).toBeLessThanOrEqual(longest + 47);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('counts a pass whose candidates fill more windows than one, and a long line across them', () => {
    const text = `${'TraTraTraTraTra Error\n'.repeat(3000)}${'Tra'.repeat(20_000)}\nerror\n`;
    const block = Buffer.from(text, 'latin1');
    const expected = plainStarts(text, SIGNS_OF_DEATH).map((at) => [at, plainLines(text, 0, at).count]);
    expect(passHits(simd, block, 0)).toEqual(expected);
    expect(simd.passLines).toBe(3002);
    // The 60,000-byte line's candidates end many windows: its length is seen across them.
    expect(simd.passLongest).toBeGreaterThanOrEqual(60_000);
    expect(simd.passLongest).toBeLessThanOrEqual(60_047);
  });

  it('ends a pass when asked anything else', () => {
    const block = Buffer.from('error\nerror\n', 'latin1');
    simd.startPass(block, 0);
    expect(simd.nextInPass(0)).toBe(0);
    simd.next(block, 0);
    expect(() => simd.nextInPass(1)).toThrow(/outside a pass/);
  });

  it('refuses what it cannot search for', () => {
    expect(() => compileBlockSieve([])).toThrow(/literals/);
    expect(() => compileBlockSieve(['ошибка'])).toThrow(/ASCII/);
  });
});

describe('a sieve searching blocks where they lie in a shared memory', () => {
  const made = createSharedMemory(4 * SIEVE_REGION_BYTES + (1 << 20));
  if (made === null) throw new Error('shared WebAssembly memory is missing here');
  const memory = made;
  // Two sieves with a region each, as the session and its helper thread have; blocks after the regions.
  const first = compileBlockSieve(SIGNS_OF_DEATH);
  const second = compileBlockSieve(SIGNS_OF_DEATH);
  first.searchInPlace(memory, 0);
  second.searchInPlace(memory, SIEVE_REGION_BYTES);
  const blocksAt = 2 * SIEVE_REGION_BYTES;

  /** `text` written into the memory at `at`, followed by `after`; a view of it, as a slot's block is. */
  function lay(text: string, at: number, after = '\0'.repeat(READ_PAST)): Buffer {
    const block = Buffer.from(memory.buffer, blocksAt + at, Buffer.byteLength(text, 'latin1'));
    block.write(text, 'latin1');
    Buffer.from(memory.buffer, blocksAt + at + block.length, after.length).write(after, 'latin1');
    return block;
  }

  it('finds what the plain loops find, the lines before each hit counted, both sieves in turn', () => {
    const piece = fc.constantFrom(...SIGNS_OF_DEATH, 'Tra', 'err', 'x', '\n', ' ');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), fc.nat(64), (pieces, at) => {
        const text = pieces.join('');
        const block = lay(text, at);
        const expected = passHits(plain, block, 0);
        expect(passHits(first, block, 0)).toEqual(expected);
        expect(passHits(second, block, 0)).toEqual(expected);
        expect(first.passLines).toBe(plain.passLines);
        expect(allStarts(first, block)).toEqual(allStarts(plain, block));
      }),
      { numRuns: 300 },
    );
  });

  it('reads the block in the memory, not a copy of it', () => {
    const block = lay('a quiet line\nanother\n', 0);
    first.load(block);
    // Written after it was taken in: a copy would not see it.
    block.write('Error', 2, 'latin1');
    expect(first.next(block, 0)).toBe(2);
  });

  it('copies a block whose bytes after it are not zeros: the search reads past its end', () => {
    // Newlines and a literal right after the block must count for nothing.
    const block = lay('Traceback\n', 100, '\nError\n'.repeat(8));
    expect(first.countLines(block, 0, block.length)).toBe(1);
    first.startPass(block, 0);
    expect(first.nextInPass(0)).toBe(0);
    expect(first.nextInPass(1)).toBe(-1);
    expect(first.passLines).toBe(1);
  });

  it('copies the blocks of a memory it has let go', () => {
    const other = compileBlockSieve(SIGNS_OF_DEATH);
    other.searchInPlace(memory, 2 * SIEVE_REGION_BYTES + (1 << 19));
    other.forget(memory);
    const block = lay('ok\n', 0);
    other.load(block);
    block.write('Error', 0, 'latin1');
    expect(other.next(block, 0)).toBe(-1);
  });
});
