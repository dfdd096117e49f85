import { QUOTABLE_SIGNS, REPORTING_LEVEL, SIGNS_OF_DEATH } from './knowledge/may-matter.js';
import { compileBlockSieve, type BlockSieve, type SieveMemory } from './search/block-sieve.js';

/** How far into a line its level is looked for. */
const LEVEL_WITHIN = 200;

// One per thread, built at first use: the block it holds is the one being searched (each search loads it).
let sieve: BlockSieve | null = null;
const signs = (): BlockSieve => (sieve ??= compileBlockSieve(SIGNS_OF_DEATH));
// The block loaded last, taken in by the sieve at its first question: a short log read closely from its
// first line to its last asks none, and then neither compiles the sieve's WebAssembly nor copies the log
// into it (a tenth of a one-line log's diagnosis).
let pending: Buffer | null = null;

/**
 * From now on this thread searches the blocks that lie in `memory` where they are (BlockSieve.searchInPlace),
 * its sieve's own part of the memory at `base`: the session and its helper read a log into one memory.
 */
export function searchInPlace(memory: SieveMemory, base: number): void {
  loaded().searchInPlace(memory, base);
}

/** The blocks of `memory` are copied again before they are searched (the memory is being let go). */
export function forgetMemory(memory: SieveMemory): void {
  // A block still waiting to be taken in is taken in now, as its bytes are, before the memory is reused.
  if (pending !== null && pending.buffer === memory.buffer) loaded();
  sieve?.forget(memory);
}

/**
 * The cheap search of a block of whole lines: takes in its bytes as they are at the first question after
 * (the callers ask in the same turn, before anything writes the block again). The block scanner and the
 * helper thread load each block once, then ask `nextSignOfDeath` and `countLines` of it.
 */
export function loadBlock(block: Buffer): void {
  pending = block;
}

/** The sieve, with the block loaded last taken in. */
function loaded(): BlockSieve {
  const search = signs();
  if (pending !== null) {
    search.load(pending);
    pending = null;
  }
  return search;
}

/**
 * Where the next sign of death in `block` from `from` on (and before `to`) begins, or -1, passing over
 * exception words that an INFO or DEBUG line quotes (request logs carry prompts about errors): a server
 * reporting is not dying.
 */
export function nextSignOfDeath(block: Buffer, from: number, to = block.length): number {
  const search = loaded();
  return nextSign(block, from, to, (at) => search.next(block, at));
}

/**
 * A pass over `block` from `from` (a line's start) for `nextSignInPass`: the same signs, with the lines
 * before each counted as they are found (search/block-sieve.ts), so the block is read once.
 */
export function startSignPass(block: Buffer, from: number): void {
  loaded().startPass(block, from);
}

/** `nextSignOfDeath` within the pass, from `from` on (never less than before). */
export function nextSignInPass(block: Buffer, from: number, to = block.length): number {
  const search = loaded();
  return nextSign(block, from, to, (at) => search.nextInPass(at));
}

/** The newlines between the pass's start and its last sign; after its end, all of them. */
export function signPassLines(): number {
  return loaded().passLines;
}

/** Reads the pass on to its block's end; returns all its newlines. */
export function finishSignPass(): number {
  const search = loaded();
  for (let at = 0; ;) {
    const hit = search.nextInPass(at);
    if (hit === -1) return search.passLines;
    at = hit + 1;
  }
}

/** After the pass's end: a bound on its longest line in bytes (see BlockSieve.passLongest). */
export function signPassLongest(): number {
  return loaded().passLongest;
}

function nextSign(block: Buffer, from: number, to: number, next: (at: number) => number): number {
  const search = loaded();
  let at = from;
  for (;;) {
    const hit = next(at);
    if (hit === -1 || hit >= to) return -1;
    const sign = SIGNS_OF_DEATH[search.literal] as string;
    if (!QUOTABLE_SIGNS.has(sign)) return hit;
    const lineStart = lineStartBefore(block, hit);
    const head = block.toString('latin1', lineStart, Math.min(hit, lineStart + LEVEL_WITHIN));
    if (!REPORTING_LEVEL.test(head)) return hit;
    // A later sign, on this line or another, is weighed on its own.
    at = hit + sign.length;
  }
}

/**
 * The start of the line holding `at` (after the newline before it), as a string's `lastIndexOf` from
 * `at - 1` gives it: a Buffer's counts a negative offset from its end.
 */
export function lineStartBefore(block: Buffer, at: number): number {
  if (at <= 0) return block[0] === 0x0a ? 1 : 0;
  return block.lastIndexOf(0x0a, at - 1) + 1;
}

/**
 * Counts the lines of `block` in [from, to), which ends at a line's start, and notes where those longer
 * than `maxLineLength` bytes start (plus `offset`): few enough to measure in characters one by one.
 */
export function countLines(
  block: Buffer,
  from: number,
  to: number,
  maxLineLength: number,
  longStarts: number[],
  offset = 0,
): number {
  // A short span before the sieve is built (a short log) is counted line by line: compiling the sieve
  // would cost more than the span.
  if (sieve === null && to - from <= COUNT_ALONE_BYTES)
    return countEach(block, from, to, maxLineLength, longStarts, offset);
  const search = loaded();
  const count = search.countLines(block, from, to);
  if (search.longest <= maxLineLength) return count;
  countEach(block, from, to, maxLineLength, longStarts, offset);
  return count;
}

/** Spans up to this many bytes are counted without the sieve while it is not built yet. */
const COUNT_ALONE_BYTES = 256 << 10;

/** countLines by Buffer.indexOf, line after line. */
function countEach(
  block: Buffer,
  from: number,
  to: number,
  maxLineLength: number,
  longStarts: number[],
  offset: number,
): number {
  let count = 0;
  for (let start = from; start < to; count++) {
    const lf = block.indexOf(0x0a, start);
    if (lf === -1 || lf >= to) break;
    if (lf - start > maxLineLength) longStarts.push(offset + start);
    start = lf + 1;
  }
  return count;
}
