import {
  createSharedMemory,
  READ_PAST,
  SIEVE_REGION_BYTES,
  type SieveMemory,
} from '../search/block-sieve.js';
import type { Prescan } from './prescan-block.js';

/** Layout of the memory the session and its helper thread share; see prescan-helper.ts. */
const HIT_CAPACITY = 32_768;
const LONG_CAPACITY = 256;

/** Slot states; a slot starts at 0, never posted. */
export const PENDING = 1;
export const DONE = 2;
/** The session searches that block itself: more hits than a slot holds, or the helper failed on it. */
const OVERFLOW = 3;
/** Taken: by the helper, which is searching it, or by the session, which searches it itself. */
export const WORKING = 4;
export const BY_SESSION = 5;

/** Control words: blocks posted so far, and a stop request. */
export const POSTED = 0;
export const STOP = 1;

const STATE = 0;
const LENGTH = 1;
const START = 2;
const END = 3;
const HAS_CR = 4;
const LINES = 5;
const HIT_COUNT = 6;
const LONG_COUNT = 7;
const HEADER = 8;
export const RESULT_WORDS = HEADER + 2 * HIT_CAPACITY + LONG_CAPACITY;

interface SharedSlot {
  /** Where the slot's block begins in the memory. */
  offset: number;
  result: SharedArrayBuffer;
}

export interface HelperData {
  control: SharedArrayBuffer;
  /**
   * One shared WebAssembly memory for every slot's block, so that both threads search a block where the
   * session read it (a copy of each block into each thread's sieve was a tenth of the helper's work).
   */
  memory: SieveMemory;
  /** Where the helper's sieve keeps its tables and results in the memory (the session's is at 0). */
  helperBase: number;
  slots: SharedSlot[];
  blockBytes: number;
  maxLineLength: number;
}

/** Where the session's sieve keeps its tables and results in a helper's memory. */
export const SESSION_BASE = 0;

/**
 * The memory for `slots` blocks of `blockBytes` and the two sieves' parts of it: each block is followed by
 * READ_PAST bytes no one writes (the search reads past a block's end). Null where the memory cannot be had.
 */
export function layOutSlots(slots: number, blockBytes: number, maxLineLength: number): HelperData | null {
  const region = roundUp(SIEVE_REGION_BYTES, 64);
  const stride = roundUp(blockBytes + READ_PAST, 64);
  const memory = createSharedMemory(2 * region + slots * stride);
  if (memory === null) return null;
  return {
    control: new SharedArrayBuffer(8),
    memory,
    helperBase: region,
    slots: Array.from({ length: slots }, (_, i) => ({
      offset: 2 * region + i * stride,
      result: new SharedArrayBuffer(4 * RESULT_WORDS),
    })),
    blockBytes,
    maxLineLength,
  };
}

function roundUp(bytes: number, unit: number): number {
  return Math.ceil(bytes / unit) * unit;
}

/** A slot's block: a view of the memory (made on each thread from its own copy of the memory object). */
export function slotBlock(data: HelperData, index: number): Buffer {
  return Buffer.from(data.memory.buffer, (data.slots[index] as SharedSlot).offset, data.blockBytes);
}

/**
 * A block shorter than its slot is followed by what an older block left there: READ_PAST zero bytes after
 * it let the sieve search it in place.
 */
export function clearAfterBlock(block: Buffer, length: number): void {
  if (length < block.length) {
    Buffer.from(block.buffer, block.byteOffset + length, READ_PAST).fill(0);
  }
}

export function slotState(result: Int32Array): number {
  return Atomics.load(result, STATE);
}

export function slotLength(result: Int32Array): number {
  return result[LENGTH] as number;
}

/** Takes a posted slot for `who`; false when the other thread took it first. */
export function claimSlot(result: Int32Array, who: number): boolean {
  return Atomics.compareExchange(result, STATE, PENDING, who) === PENDING;
}

export function markPending(result: Int32Array, length: number): void {
  result[LENGTH] = length;
  Atomics.store(result, STATE, PENDING);
}

/**
 * Writes a prescan into a slot the helper is working on and marks it done (or overflowed) for the waiting
 * session. A session that stopped waiting may have written a new block there: then nothing is marked, and
 * what was written is overwritten by whoever takes the new block.
 */
export function writePrescan(result: Int32Array, prescan: Prescan): void {
  if (Atomics.load(result, STATE) !== WORKING) return;
  if (prescan.hits.length > HIT_CAPACITY || prescan.longLines.length > LONG_CAPACITY) {
    finishSlot(result, OVERFLOW);
  } else {
    result[START] = prescan.start;
    result[END] = prescan.end;
    result[HAS_CR] = prescan.hasCarriageReturn ? 1 : 0;
    result[LINES] = prescan.lines;
    result[HIT_COUNT] = prescan.hits.length;
    result[LONG_COUNT] = prescan.longLines.length;
    result.set(prescan.hits, HEADER);
    result.set(prescan.linesBefore, HEADER + HIT_CAPACITY);
    result.set(prescan.longLines, HEADER + 2 * HIT_CAPACITY);
    finishSlot(result, DONE);
  }
}

/** Gives a slot back to the session unsearched: the helper failed on it. */
export function failSlot(result: Int32Array): void {
  finishSlot(result, OVERFLOW);
}

/** Ends the helper's work on a slot, unless the session has written a new block there since. */
function finishSlot(result: Int32Array, state: number): void {
  if (Atomics.compareExchange(result, STATE, WORKING, state) === WORKING) Atomics.notify(result, STATE);
}

/** The prescan a done slot holds, as views on the shared memory (valid until the slot is reused). */
export function readPrescan(result: Int32Array): Prescan {
  const hits = result[HIT_COUNT] as number;
  return {
    start: result[START] as number,
    end: result[END] as number,
    hasCarriageReturn: result[HAS_CR] === 1,
    lines: result[LINES] as number,
    hits: result.subarray(HEADER, HEADER + hits),
    linesBefore: result.subarray(HEADER + HIT_CAPACITY, HEADER + HIT_CAPACITY + hits),
    longLines: result.subarray(
      HEADER + 2 * HIT_CAPACITY,
      HEADER + 2 * HIT_CAPACITY + (result[LONG_COUNT] as number),
    ),
  };
}
