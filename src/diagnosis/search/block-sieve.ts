import { WASM_BASE64 } from './block-sieve-wasm.js';

/**
 * Finds a few literals in a block of bytes and counts its lines: the cheap search of a long log, which
 * looks at every byte of it. A literal here is case-sensitive and found where it begins.
 */
export interface BlockSieve {
  /** How it searches: with the SIMD module, or with plain loops where that cannot run. */
  readonly kind: 'simd' | 'plain';
  /**
   * Takes in `block` for the questions after: its bytes as they are now (a block written again must be
   * loaded again; asking of another block loads that one).
   */
  load(block: Uint8Array): void;
  /** Where the first literal at or after `from` in `block` begins, or -1; `literal` then says which. */
  next(block: Uint8Array, from: number): number;
  /** The index into the literals of the one the last `next` found (-1 when it found none). */
  readonly literal: number;
  /** Which literal begins at `at` (an index into the literals), or -1. */
  literalAt(block: Uint8Array, at: number): number;
  /**
   * The lines in [from, to) of `block`, a span ending at a line's start; `longest` is then a bound on the
   * longest of them in bytes without its newline (at least the longest, at most 16 more than it).
   */
  countLines(block: Uint8Array, from: number, to: number): number;
  readonly longest: number;
  /**
   * Starts a pass over `block` from `from`, a line's start, to its end: `nextInPass` then gives the
   * literals' starts in order, each with the newlines between `from` and it, counted in the same reading
   * of the bytes that finds them (a caller that wants the lines between its hits reads the block once).
   * Any other question of the sieve ends the pass.
   */
  startPass(block: Uint8Array, from: number): void;
  /** The first literal start at or after `at` in the pass (`at` never less than before), or -1 at its end. */
  nextInPass(at: number): number;
  /** The newlines between the pass's start and what `nextInPass` last gave; at the pass's end, all of them. */
  readonly passLines: number;
  /** At the pass's end: a bound on its longest line in bytes without the newline (at least it, at most 47 more). */
  readonly passLongest: number;
  /**
   * From now on a block that lies in `memory` (a shared WebAssembly memory) with READ_PAST zero bytes after
   * it is searched where it lies, not copied first: the session and its helper thread read the log's blocks
   * into one such memory. The sieve's tables and results take SIEVE_REGION_BYTES of it from `base`, which
   * nothing else may use. A later memory takes the place of the one before.
   */
  searchInPlace(memory: SieveMemory, base: number): void;
  /** Stops searching blocks of `memory` in place (it is about to be let go). */
  forget(memory: SieveMemory): void;
}

/** A WebAssembly memory, as much of it as the sieve uses. */
export interface SieveMemory {
  readonly buffer: ArrayBufferLike;
  grow(pages: number): number;
}

/** Teddy's buckets: a literal's first three bytes are looked for in one of eight at once. */
const BUCKETS = 8;
const FINGERPRINT = 3;
const TABLES_BYTES = 96;
const LONGEST_AT = 96;
const STOPPED_AT = 100;
const NEWLINES_AT = 104;
const DRIEST_AT = 108;
const DRY_AT = 112;
const CANDIDATES_AT = 128;
const MAX_CANDIDATES = 4096;
/** A sieve's own part of its memory: the tables, the results and the candidates (two u32 each). */
export const SIEVE_REGION_BYTES = CANDIDATES_AT + MAX_CANDIDATES * 8;
/** In its own memory, a block to search is copied after the region. */
const BLOCK_AT = SIEVE_REGION_BYTES;
/**
 * The kernel reads a vector (16 bytes, and 2 more) past where it is told to stop: a block searched in place
 * must have this many zero bytes after it.
 */
export const READ_PAST = 32;
const PAGE_BYTES = 64 << 10;
/** The most a memory may grow to (wasm32's limit; only address space is reserved for it). */
const MAX_PAGES = 65536;

interface Kernel {
  find_candidates(from: number, to: number, out: number, max: number, dry: number): number;
  count_lines(from: number, to: number): number;
}

/** A kernel on one memory, with its region there and views of the memory. */
interface Place {
  readonly kernel: Kernel;
  readonly memory: SieveMemory;
  readonly base: number;
  bytes: Uint8Array;
  ints: Int32Array;
}

/**
 * A sieve over `literals` (ASCII, at most eight with distinct first three bytes unless they share a
 * bucket; any number works, more only find more candidates to check). With WebAssembly's 128-bit SIMD, a
 * block is searched at a few GB/s, copied first into the sieve's own memory unless it lies in a memory it
 * searches in place (searchInPlace); where that cannot run, the same answers come from plain loops.
 */
export function compileBlockSieve(literals: readonly string[], { plain = false } = {}): BlockSieve {
  const words = literals.map(toBytes);
  if (words.length === 0 || words.some((word) => word.length === 0)) {
    throw new Error('a block sieve needs literals, none of them empty');
  }
  const own = plain ? null : placeKernel(growingMemory(), 0, words);
  return own === null ? plainSieve(words) : simdSieve(words, own);
}

/** The part of WebAssembly used here (this project's TypeScript libraries do not declare it). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
  Memory: new (descriptor: { initial: number; maximum: number; shared: boolean }) => SieveMemory;
}

const webAssembly = (): WebAssemblyApi | undefined =>
  (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;

/**
 * A shared WebAssembly memory of at least `bytes` that does not grow (where the session and its helper
 * thread lay their blocks), or null where WebAssembly or shared memory is missing.
 */
export function createSharedMemory(bytes: number): SieveMemory | null {
  const pages = Math.ceil(bytes / PAGE_BYTES);
  return newMemory(pages, pages);
}

/** The kernel's memory is shared (it may search where another thread wrote): one of its own, which grows. */
function growingMemory(): SieveMemory | null {
  return newMemory(Math.ceil((BLOCK_AT + (1 << 20) + READ_PAST) / PAGE_BYTES), MAX_PAGES);
}

function newMemory(initial: number, maximum: number): SieveMemory | null {
  const api = webAssembly();
  try {
    return api === undefined ? null : new api.Memory({ initial, maximum, shared: true });
  } catch {
    return null;
  }
}

let compiled: object | null | undefined;

/** The kernel on `memory`, its tables written at `base`; null where the module cannot run. */
function placeKernel(memory: SieveMemory | null, base: number, words: readonly Uint8Array[]): Place | null {
  const api = webAssembly();
  if (compiled === undefined) {
    try {
      compiled = api === undefined ? null : new api.Module(Buffer.from(WASM_BASE64, 'base64'));
    } catch {
      // No SIMD in this machine's WebAssembly: the plain loops answer alike.
      compiled = null;
    }
  }
  if (compiled === null || api === undefined || memory === null) return null;
  const kernel = new api.Instance(compiled, { env: { memory, base } }).exports as Kernel;
  const place = {
    kernel,
    memory,
    base,
    bytes: new Uint8Array(memory.buffer),
    ints: new Int32Array(memory.buffer),
  };
  writeTables(place.bytes, base, words);
  return place;
}

/**
 * Whether `block` lies in the place's memory with READ_PAST zero bytes after it, so the kernel may read
 * it there: what it reads past the block's end must hold no newline and begin no literal.
 */
function liesIn(place: Place, block: Uint8Array): boolean {
  if (block.buffer !== place.memory.buffer) return false;
  const end = block.byteOffset + block.length;
  if (end + READ_PAST > place.bytes.length) return false;
  for (let at = end; at < end + READ_PAST; at++) if (place.bytes[at] !== 0) return false;
  return true;
}

function toBytes(literal: string): Uint8Array {
  // A literal past ASCII would have to be searched as its UTF-8 bytes: not needed, not done.
  if ([...literal].some((ch) => ch.charCodeAt(0) > 0x7f || ch === '\0')) {
    throw new Error(`a block sieve takes ASCII literals: ${JSON.stringify(literal)}`);
  }
  return Buffer.from(literal, 'latin1');
}

/** For each first byte, the literals that begin with it. */
function byFirstByte(words: readonly Uint8Array[]): (number[] | undefined)[] {
  const table = new Array<number[] | undefined>(256);
  words.forEach((word, index) => (table[word[0] as number] ??= []).push(index));
  return table;
}

function matchesAt(block: Uint8Array, at: number, word: Uint8Array): boolean {
  if (at + word.length > block.length) return false;
  for (let i = 1; i < word.length; i++) if (block[at + i] !== word[i]) return false;
  return true;
}

function literalAtWith(
  starts: (number[] | undefined)[],
  words: readonly Uint8Array[],
): BlockSieve['literalAt'] {
  return (block, at) => {
    for (const index of starts[block[at] as number] ?? []) {
      if (matchesAt(block, at, words[index] as Uint8Array)) return index;
    }
    return -1;
  };
}

function simdSieve(words: readonly Uint8Array[], own: Place): BlockSieve {
  const starts = byFirstByte(words);
  const literalAt = literalAtWith(starts, words);
  // The memory blocks are searched in without a copy, if any; the place of the loaded block, and where it
  // begins in that place's memory.
  let shared: Place | null = null;
  let place = own;
  let blockAt = BLOCK_AT;
  let loaded: Uint8Array | null = null;
  // Candidates found in the loaded block: those at [scannedFrom, scannedTo) are all in the place's memory.
  let found = 0;
  let cursor = 0;
  let scannedFrom = 0;
  let scannedTo = 0;
  let longest = 0;
  let literal = -1;
  // A pass (startPass): the block, the newlines before the window scanned now, and after its end the
  // totals; `passing` is false once anything else asks.
  let passing = false;
  let passBlock: Uint8Array | null = null;
  let passBase = 0;
  let passLines = 0;
  let passLongest = 0;
  let passEnded = false;
  let driest = 0;

  const copyIn = (block: Uint8Array): void => {
    const needed = BLOCK_AT + block.length + READ_PAST;
    if (needed > own.memory.buffer.byteLength) {
      own.memory.grow(Math.ceil((needed - own.memory.buffer.byteLength) / PAGE_BYTES));
      // Views of the memory are made again only when it grows (a view per call was most of the garbage).
      own.bytes = new Uint8Array(own.memory.buffer);
      own.ints = new Int32Array(own.memory.buffer);
    }
    own.bytes.set(block, BLOCK_AT);
    // What the kernel reads past the block's end must not begin a literal.
    own.bytes.fill(0, BLOCK_AT + block.length, BLOCK_AT + block.length + READ_PAST);
  };

  const load = (block: Uint8Array): void => {
    if (shared !== null && liesIn(shared, block)) {
      place = shared;
      blockAt = block.byteOffset;
    } else {
      copyIn(block);
      place = own;
      blockAt = BLOCK_AT;
    }
    loaded = block;
    found = 0;
    cursor = 0;
    scannedFrom = 0;
    scannedTo = 0;
    passing = false;
  };

  const result = (at: number): number => place.ints[(place.base + at) >> 2] as number;
  const scan = (from: number, end: number, dry = 0): void => {
    const out = place.base + CANDIDATES_AT;
    found = place.kernel.find_candidates(blockAt + from, blockAt + end, out, MAX_CANDIDATES, dry);
    cursor = 0;
    scannedFrom = from;
    scannedTo = Math.min(result(STOPPED_AT) - blockAt, end);
  };
  // A candidate's two words: its position, then the newlines before it.
  const candidateWord = (index: number, word: number): number =>
    place.ints[((place.base + CANDIDATES_AT) >> 2) + 2 * index + word] as number;
  const candidateAt = (index: number): number => candidateWord(index, 0) - blockAt;
  const linesAt = (index: number): number => candidateWord(index, 1);

  return {
    kind: 'simd',
    load,
    next(block, from) {
      literal = -1;
      passing = false;
      if (block !== loaded) load(block);
      const end = block.length;
      if (from < scannedFrom || from >= scannedTo) {
        if (from >= end) return -1;
        scan(from, end);
      } else if (cursor > 0 && candidateAt(cursor - 1) >= from) {
        cursor = 0;
      }
      for (;;) {
        while (cursor < found) {
          const at = candidateAt(cursor);
          literal = at >= from && at < end ? literalAt(block, at) : -1;
          if (literal !== -1) return at;
          cursor++;
        }
        if (scannedTo >= end) return -1;
        scan(scannedTo, end);
      }
    },
    literalAt,
    countLines(block, from, to) {
      passing = false;
      if (block !== loaded) load(block);
      const count = place.kernel.count_lines(blockAt + from, blockAt + to);
      longest = result(LONGEST_AT);
      return count;
    },
    get longest() {
      return longest;
    },
    get literal() {
      return literal;
    },
    startPass(block, from) {
      if (block !== loaded) load(block);
      passBlock = block;
      passBase = 0;
      passLines = 0;
      passEnded = false;
      driest = 0;
      scan(from, block.length);
      passing = true;
    },
    nextInPass(at) {
      literal = -1;
      const block = passBlock as Uint8Array;
      if (!passing || block !== loaded) throw new Error('nextInPass outside a pass');
      if (passEnded) return -1;
      const end = block.length;
      for (;;) {
        while (cursor < found) {
          const candidate = candidateAt(cursor);
          if (candidate >= at && candidate < end) {
            literal = literalAt(block, candidate);
            if (literal !== -1) {
              passLines = passBase + linesAt(cursor);
              return candidate;
            }
          }
          cursor++;
        }
        // The window's newlines and its run of vectors without one go on into the next window.
        passBase += result(NEWLINES_AT);
        driest = Math.max(driest, result(DRIEST_AT));
        if (scannedTo >= end) {
          passLines = passBase;
          passLongest = 16 * (driest + 2);
          passEnded = true;
          return -1;
        }
        scan(scannedTo, end, result(DRY_AT));
      }
    },
    get passLines() {
      return passLines;
    },
    get passLongest() {
      return passLongest;
    },
    searchInPlace(memory, base) {
      if (base % 16 !== 0) throw new Error('a sieve region begins at a multiple of 16');
      shared = placeKernel(memory, base, words);
      loaded = null;
    },
    forget(memory) {
      if (shared?.memory !== memory) return;
      shared = null;
      place = own;
      loaded = null;
    },
  };
}

/**
 * Teddy's nibble tables: a literal in bucket b sets bit b, for each of its first three bytes, at that
 * byte's low nibble in one table and its high nibble in the other. A shorter literal allows any byte past
 * its end.
 */
function writeTables(memory: Uint8Array, base: number, words: readonly Uint8Array[]): void {
  memory.fill(0, base, base + TABLES_BYTES);
  words.forEach((word, index) => {
    const bit = 1 << (index % BUCKETS);
    for (let k = 0; k < FINGERPRINT; k++) {
      const lo = memory.subarray(base + k * 32, base + k * 32 + 16);
      const hi = memory.subarray(base + k * 32 + 16, base + k * 32 + 32);
      if (k >= word.length) {
        for (let nibble = 0; nibble < 16; nibble++) {
          lo[nibble] = (lo[nibble] as number) | bit;
          hi[nibble] = (hi[nibble] as number) | bit;
        }
        continue;
      }
      const byte = word[k] as number;
      lo[byte & 15] = (lo[byte & 15] as number) | bit;
      hi[byte >> 4] = (hi[byte >> 4] as number) | bit;
    }
  });
}

/** The same answers with plain loops (memchr for each first byte is not worth it: this is the fallback). */
function plainSieve(words: readonly Uint8Array[]): BlockSieve {
  const starts = byFirstByte(words);
  let longest = 0;
  let literal = -1;
  const literalAt = literalAtWith(starts, words);
  const next = (block: Uint8Array, from: number): number => {
    for (let at = from; at < block.length; at++) {
      literal = starts[block[at] as number] === undefined ? -1 : literalAt(block, at);
      if (literal !== -1) return at;
    }
    return -1;
  };
  // A pass: its block, how far its newlines are counted (and how many), where its current line began.
  let passBlock: Uint8Array | null = null;
  let counted = 0;
  let passLines = 0;
  let lineStart = 0;
  let passLongest = 0;
  const countTo = (to: number): void => {
    const block = passBlock as Uint8Array;
    for (; counted < to; counted++) {
      if (block[counted] !== 0x0a) continue;
      passLines++;
      passLongest = Math.max(passLongest, counted - lineStart);
      lineStart = counted + 1;
    }
  };
  return {
    kind: 'plain',
    load: () => undefined,
    next,
    literalAt,
    countLines(block, from, to) {
      let count = 0;
      let start = from;
      longest = 0;
      for (let at = from; at < to; at++) {
        if (block[at] !== 0x0a) continue;
        count++;
        longest = Math.max(longest, at - start);
        start = at + 1;
      }
      return count;
    },
    get longest() {
      return longest;
    },
    get literal() {
      return literal;
    },
    startPass(block, from) {
      passBlock = block;
      counted = from;
      lineStart = from;
      passLines = 0;
      passLongest = 0;
    },
    nextInPass(at) {
      const block = passBlock as Uint8Array;
      const hit = next(block, Math.max(at, counted));
      countTo(hit === -1 ? block.length : hit);
      // The run of bytes after the last newline is a line too, for the bound.
      if (hit === -1) passLongest = Math.max(passLongest, block.length - lineStart);
      return hit;
    },
    get passLines() {
      return passLines;
    },
    get passLongest() {
      return passLongest;
    },
    // Plain loops read a block where it lies, whatever memory it is in.
    searchInPlace: () => undefined,
    forget: () => undefined,
  };
}
