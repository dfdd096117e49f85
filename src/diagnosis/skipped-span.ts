import { countProbes } from './knowledge/probes.js';

/** What the scanner hands over for a span of lines it passed over: their last lines, made on demand. */
export interface SkippedLines {
  /** The last lines of the span, oldest first, as strings. */
  read(): string[];
  /**
   * The block behind the span is about to be written again: keep what `read` needs. Reading the lines
   * now would do, but a span's last lines are rarely read at all, and a copy of their bytes costs a
   * fraction of decoding them (the session settles every block: 40 lines a block, 40,000 a GB).
   */
  detach(): void;
  /**
   * How many of the span's lines (all of them, not only the last) are probes answered (knowledge/probes.ts);
   * asked before `detach`, while the whole span is there.
   */
  countProbes(): number;
}

/** Lines at most this long are kept as bytes when detached; a longer one is read at once instead. */
const DETACHED_BYTES = 16 * 1024;

/**
 * The last `count` lines of `bytes[from, to)`, which ends at a line's start, found by walking back from
 * its end; each line cut to `maxLineLength` characters.
 */
export class SkippedSpan implements SkippedLines {
  private lines: string[] | null = null;

  constructor(
    private bytes: Buffer,
    private from: number,
    private to: number,
    private readonly count: number,
    private readonly maxLineLength: number,
  ) {}

  read(): string[] {
    if (this.lines !== null) return this.lines;
    const lines: string[] = [];
    let end = this.to - 1;
    while (lines.length < this.count && end >= this.from) {
      const start = this.lineStart(end);
      const raw = this.bytes.toString('utf8', start, end);
      lines.push(raw.length > this.maxLineLength ? raw.slice(0, this.maxLineLength) : raw);
      end = start - 1;
    }
    return lines.reverse();
  }

  countProbes(): number {
    return countProbes(this.bytes, this.from, this.to);
  }

  detach(): void {
    if (this.lines !== null) return;
    let first = this.to;
    for (let n = 0, end = this.to - 1; n < this.count && end >= this.from; n++) {
      first = this.lineStart(end);
      end = first - 1;
    }
    if (this.to - first > DETACHED_BYTES) {
      this.lines = this.read();
      return;
    }
    // A copy of the bytes from the first kept line's start: walking back in it finds the same lines.
    this.bytes = Buffer.from(this.bytes.subarray(first, this.to));
    this.from = 0;
    this.to = this.bytes.length;
  }

  /** Where the line ending at the newline `end` starts, not before the span's start. */
  private lineStart(end: number): number {
    const start = end === 0 ? 0 : this.bytes.lastIndexOf(0x0a, end - 1) + 1;
    return Math.max(start, this.from);
  }
}
