import type { SkippedLines } from './skipped-span.js';

/** Lines skipped in bulk, read back only if a candidate asks for its context. */
interface SkippedEntry {
  count: number;
  /** The last min(count, keep) of them, oldest first: the scanner's until read. */
  lines: SkippedLines | string[];
}

type Entry = string | SkippedEntry;

/**
 * The last few lines of the log, the context a candidate keeps. A scanner that skips chatter in bulk
 * hands over a span at a time; its lines are made into strings only when they are read.
 */
export class RecentLines {
  /** From `head` on: the entries before it are forgotten (dropped in bulk, not one shift a line). */
  private entries: Entry[] = [];
  private head = 0;
  /** Lines the entries stand for, skipped spans counted in full. */
  private total = 0;

  constructor(
    private readonly keep: number,
    private readonly prepare: (raw: string) => string,
  ) {}

  push(line: string): void {
    this.entries.push(line);
    this.total++;
    this.trim();
  }

  pushSkipped(count: number, lines: SkippedLines): void {
    if (count <= 0) return;
    this.entries.push({ count, lines });
    this.total += count;
    this.trim();
  }

  /** Detaches every skipped span still kept, so nothing refers to the block it came from. */
  settle(): void {
    for (let i = this.head; i < this.entries.length; i++) {
      const entry = this.entries[i] as Entry;
      if (typeof entry !== 'string' && !Array.isArray(entry.lines)) entry.lines.detach();
    }
  }

  /** The last `count` lines (at most `keep`), oldest first. */
  last(count: number = this.keep): string[] {
    count = Math.min(count, this.keep);
    const lines: string[] = [];
    for (let i = this.entries.length - 1; i >= this.head && lines.length < count; i--) {
      const entry = this.entries[i] as Entry;
      if (typeof entry === 'string') lines.push(entry);
      else {
        const span = this.linesOf(entry);
        for (let j = span.length - 1; j >= 0 && lines.length < count; j--) lines.push(span[j] as string);
      }
    }
    return lines.reverse();
  }

  /** The line `back` lines before the end (1 is the last), or undefined once forgotten. */
  at(back: number): string | undefined {
    if (back < 1 || back > this.keep) return undefined;
    const lines = this.last(back);
    return lines.length === back ? lines[0] : undefined;
  }

  private linesOf(entry: SkippedEntry): string[] {
    if (!Array.isArray(entry.lines)) entry.lines = entry.lines.read().map(this.prepare);
    return entry.lines;
  }

  private trim(): void {
    while (this.entries.length - this.head > 1) {
      const first = this.entries[this.head] as Entry;
      const size = typeof first === 'string' ? 1 : first.count;
      if (this.total - size < this.keep) break;
      // Nothing forgotten may keep a skipped span's block alive.
      this.entries[this.head++] = '';
      this.total -= size;
    }
    if (this.head >= 256) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }
}
