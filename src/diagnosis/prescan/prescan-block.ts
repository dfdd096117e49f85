import {
  countLines,
  lineStartBefore,
  loadBlock,
  nextSignInPass,
  nextSignOfDeath,
  finishSignPass,
  signPassLines,
  signPassLongest,
  startSignPass,
} from '../signs-of-death.js';

/**
 * What a helper thread found in one chunk, ahead of the session: the lines holding a sign of death and
 * how many lines lie between them. Offsets are the chunk's own.
 */
export interface Prescan {
  /** The first whole line's start (after the chunk's first newline) and the end of its last whole line. */
  start: number;
  end: number;
  /** Lone CRs split lines too: such a chunk is left to the session's own reading. */
  hasCarriageReturn: boolean;
  /** The lines from `start` to `end`. */
  lines: number;
  /** Starts of the lines holding a sign of death, in order. */
  hits: Int32Array;
  /** For each hit, the lines between `start` and it. */
  linesBefore: Int32Array;
  /** Starts of the lines longer than the longest kept, in bytes (the session counts them in characters). */
  longLines: Int32Array;
}

/** Finds the signs of death in a chunk's whole lines, as `BlockScanner` would before the log's end. */
export function prescanBlock(bytes: Uint8Array, maxLineLength: number): Prescan {
  const block = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const start = block.indexOf(0x0a) + 1;
  const end = block.lastIndexOf(0x0a) + 1;
  const hasCarriageReturn = block.indexOf(0x0d) !== -1;
  const { hits, linesBefore, longLines, lines } =
    start > 0 && !hasCarriageReturn
      ? (searchOnce(block, start, end, maxLineLength) ?? searchCounting(block, start, end, maxLineLength))
      : { hits: [], linesBefore: [], longLines: [], lines: 0 };
  return {
    start,
    end,
    hasCarriageReturn,
    lines,
    hits: Int32Array.from(hits),
    linesBefore: Int32Array.from(linesBefore),
    longLines: Int32Array.from(longLines),
  };
}

interface Found {
  hits: number[];
  linesBefore: number[];
  longLines: number[];
  lines: number;
}

/**
 * One reading of the block finds the signs and counts the lines before each; null when a line in it may be
 * longer than the longest kept, whose lines between the signs are then measured one by one.
 */
function searchOnce(block: Buffer, start: number, end: number, maxLineLength: number): Found | null {
  const hits: number[] = [];
  const linesBefore: number[] = [];
  startSignPass(block, start);
  let pos = start;
  for (;;) {
    const hit = nextSignInPass(block, pos, end);
    if (hit === -1) break;
    const lineStart = lineStartBefore(block, hit);
    hits.push(lineStart);
    linesBefore.push(signPassLines());
    pos = block.indexOf(0x0a, hit) + 1;
  }
  const lines = finishSignPass();
  return signPassLongest() > maxLineLength ? null : { hits, linesBefore, longLines: [], lines };
}

/** The signs and the lines between them counted span by span, each long line's start noted. */
function searchCounting(block: Buffer, start: number, end: number, maxLineLength: number): Found {
  const hits: number[] = [];
  const linesBefore: number[] = [];
  const longLines: number[] = [];
  let lines = 0;
  loadBlock(block);
  let pos = start;
  for (;;) {
    const hit = pos < end ? nextSignOfDeath(block, pos, end) : -1;
    const lineStart = hit === -1 ? end : lineStartBefore(block, hit);
    lines += countLines(block, pos, lineStart, maxLineLength, longLines);
    if (hit === -1) break;
    hits.push(lineStart);
    linesBefore.push(lines);
    const lf = block.indexOf(0x0a, hit);
    lines++;
    if (lf - lineStart > maxLineLength) longLines.push(lineStart);
    pos = lf + 1;
  }
  return { hits, linesBefore, longLines, lines };
}
