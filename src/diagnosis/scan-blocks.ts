import { LineSplitter } from '../parsing/split-lines.js';
import { MAY_MATTER_IN_BLOCK } from './knowledge/may-matter.js';
import { prescanBlock, type Prescan } from './prescan/prescan-block.js';
import type { PrescanHelper, StartPrescanHelper } from './prescan/prescan-helper.js';
import { countLines, lineStartBefore, loadBlock, nextSignOfDeath } from './signs-of-death.js';
import { SkippedSpan, type SkippedLines } from './skipped-span.js';

/** What the scanner feeds: the diagnosis session, which says how closely it wants to read. */
export interface ScanTarget {
  /** Whether line `n` must be read whatever it holds (the head, inside a traceback, context of a candidate). */
  needsLine(n: number): boolean;
  /**
   * Whether the lines from `n` on are searched closely (every line that may matter) rather than for signs
   * of a failure alone: decided from lines read (a start or a death just before), not the server's state.
   */
  readsClosely(n: number): boolean;
  readLine(raw: string): void;
  /** `count` lines passed over; `lastLines` makes the last of them into strings if they are wanted. */
  skipLines(count: number, lastLines: SkippedLines): void;
  /** The block the skipped lines came from is about to be written again: lines still wanted are read now. */
  settle(): void;
}

export interface ScanOptions {
  maxLineLength: number;
  /** Starts a helper that searches a long log as well (the same diagnosis, sooner). */
  startHelper?: StartPrescanHelper;
  /** The log's last this many bytes are read closely (its death is there); before them, the cheap search. */
  closeReadBytes: number;
}

/** The scanner's own blocks: written as chunks arrive, read once the queue holds more than the close read. */
const BLOCK_BYTES = 1 << 20;
const SPARE_BLOCKS = 2;
/** A helper thread pays for its start once a log is this long. */
const HELPER_AFTER_BYTES = 16 << 20;
/** Shared blocks the helper may take (a close read this long or longer goes without it). */
const MAX_HELPER_SLOTS = 16;
/**
 * Of the queued end, the last this many lines are read closely; what lies before them, the cheap way. The
 * diagnosis weighs the 2,000 lines before a death (attempt.ts), and a death may be followed by as many
 * of a shutdown and a restart (the reading policy reads those closely anyway, from the lines that say so).
 * The queue's 4 MiB were sized for 2,000 lines of 2 KiB; at a log's usual 150-250 bytes a line they held
 * 20,000 lines, read closely on every log over a few MiB: two thirds of a 10 MB log's time.
 */
const CLOSE_TAIL_LINES = 4_000;
/** Lines kept for a skipped span: the most context a candidate takes. */
const SKIPPED_KEPT = 40;
const BOM = [0xef, 0xbb, 0xbf];

/**
 * Reads a log as large byte blocks, not line by line: one search over a block finds the lines that may
 * matter, and only those (and the lines the session asks for) become strings. The lines between are
 * counted and remembered by offset. The last `closeReadBytes` wait in a queue, so the end of the log is
 * always read closely, whatever the server was doing.
 */
export class BlockScanner {
  bytes = 0;
  private cutLines = 0;

  /** Blocks written and waiting: the last `closeReadBytes` are always here. */
  private queue: { block: Buffer; sequence: number | null; own?: Prescan }[] = [];
  /** The helper thread, once the log is long enough to pay for it; its blocks carry a sequence number. */
  private helper: PrescanHelper | null = null;
  private helperTried = false;
  private fillingSequence: number | null = null;
  private queued = 0;
  /** The block being written, and how much of it. */
  private filling: Buffer | null = null;
  private filled = 0;
  /** Blocks read and free to write again. */
  private readonly spare: Buffer[] = [];
  /** The start of a line whose end has not arrived. */
  private carry: Buffer | null = null;
  /** The carried line passed the longest kept: the rest of it is dropped. */
  private carryCut = false;
  private started = false;
  private lines = 0;
  private readonly maxBytes: number;
  private readonly splitter: LineSplitter;
  /** Where the long lines of the span being skipped start (reused: skipping is the hot path). */
  private readonly longStarts: number[] = [];

  constructor(
    private readonly target: ScanTarget,
    private readonly options: ScanOptions,
  ) {
    // The longest line kept, in bytes: a UTF-16 unit takes at most three.
    this.maxBytes = options.maxLineLength * 3 + 4;
    this.splitter = new LineSplitter((line) => this.readText(line), options.maxLineLength);
  }

  /** Lines cut to the longest kept. */
  get truncatedLines(): number {
    return this.cutLines + this.splitter.truncatedLines;
  }

  /**
   * Copies the chunk into the scanner's own blocks, so the caller may reuse its buffer at once and the
   * memory in use stays the same few blocks however long the log (fresh buffers per read cost page faults,
   * collections and tens of MiB of heap that the allocator keeps).
   */
  push(chunk: Uint8Array): void {
    let at = 0;
    const copy = (target: Uint8Array): number => {
      const taken = Math.min(chunk.length - at, target.length);
      target.set(chunk.subarray(at, at + taken));
      at += taken;
      return taken;
    };
    while (at < chunk.length) this.fill(copy);
  }

  /**
   * Lends the rest of the block being written to `read`, which writes up to its length and says how much it
   * wrote (0 at the end of the log): a file is read straight into the scanner's blocks, with no copy.
   */
  fill(read: (target: Uint8Array) => number): number {
    if (this.filling === null) this.startBlock();
    const target = (this.filling as Buffer).subarray(this.filled);
    const count = read(target);
    this.bytes += count;
    // NUL bytes are no log's text but holes in its file (UTF-16 read as bytes, a truncation under a
    // writer that kept its offset): dropped as they come, every reader sees the same lines.
    const written = target.subarray(0, count);
    this.filled += written.indexOf(0) === -1 ? count : dropNul(written);
    if (this.filled === BLOCK_BYTES) this.enqueueFilling();
    return count;
  }

  private startBlock(): void {
    const start = this.options.startHelper;
    if (!this.helperTried && start !== undefined && this.bytes > HELPER_AFTER_BYTES) {
      this.helperTried = true;
      // A slot per block the session may hold at once (the queue, the block being written), and one spare.
      const slots = Math.ceil(this.options.closeReadBytes / BLOCK_BYTES) + 3;
      if (slots <= MAX_HELPER_SLOTS) this.helper = start(slots, BLOCK_BYTES, this.options.maxLineLength);
    }
    if (this.helper !== null) {
      const { block, sequence } = this.helper.nextBlock();
      this.filling = block;
      this.fillingSequence = sequence;
      return;
    }
    this.filling = this.spare.pop() ?? Buffer.allocUnsafe(BLOCK_BYTES);
    this.fillingSequence = null;
  }

  private enqueueFilling(): void {
    if (this.filling === null || this.filled === 0) return;
    const block = this.filled === BLOCK_BYTES ? this.filling : this.filling.subarray(0, this.filled);
    if (this.fillingSequence !== null) this.helper?.post(this.fillingSequence, this.filled);
    this.queue.push({ block, sequence: this.fillingSequence });
    this.queued += this.filled;
    this.filling = null;
    this.fillingSequence = null;
    this.filled = 0;
    while (this.queued - BLOCK_BYTES >= this.options.closeReadBytes) this.scanNext(true);
  }

  /** Reads what is queued now, closely: a peek must see the log up to here. */
  flush(): void {
    if (this.filled === 0 && this.queued === 0) return;
    this.enqueueFilling();
    while (this.queued > 0) this.scanNext(false);
  }

  end(): void {
    this.enqueueFilling();
    this.searchBeforeTail();
    this.flush();
    if (this.carry !== null) {
      const last = this.carry;
      this.carry = null;
      this.readLast(last);
    }
    this.splitter.end();
    this.target.settle();
    this.helper?.close();
  }

  /**
   * At the end, the queued lines before the last CLOSE_TAIL_LINES are searched as the blocks before them
   * were: the cheap search, or the close one where the lines read ask for it (after a start or a death).
   */
  private searchBeforeTail(): void {
    const tail = this.tailStart();
    if (tail === null) return;
    for (let i = 0; i < tail.entry; i++) this.scanNext(true);
    if (tail.at === 0) return;
    // The block the tail begins in is read in two: its lines before the tail as the blocks before it.
    const entry = this.queue[0];
    if (entry === undefined) return;
    // The helper's search was of the whole block: it is let go, and the part searched here. The part is a
    // copy, so that the block is not given back for reuse while its tail waits.
    if (entry.own === undefined && entry.sequence !== null) this.helper?.take(entry.sequence);
    this.queue[0] = { block: entry.block.subarray(tail.at), sequence: null };
    this.queue.unshift({ block: Buffer.from(entry.block.subarray(0, tail.at)), sequence: null });
    this.scanNext(true);
  }

  /** Where the last CLOSE_TAIL_LINES queued lines begin (a queue entry and an offset in it); null: all of it. */
  private tailStart(): { entry: number; at: number } | null {
    let lines = 0;
    for (let entry = this.queue.length - 1; entry >= 0; entry--) {
      const block = (this.queue[entry] as { block: Buffer }).block;
      // A last line without its newline is one of the tail's too (it is the carry, read at the end).
      let end = block.length;
      while (end > 0) {
        const lf = block.lastIndexOf(0x0a, end - 1);
        if (lf === -1) break;
        lines++;
        if (lines > CLOSE_TAIL_LINES)
          return lf + 1 === block.length ? { entry: entry + 1, at: 0 } : { entry, at: lf + 1 };
        end = lf;
      }
    }
    return null;
  }

  /** Scans the oldest queued block, then gives it back for reuse once nothing refers to it. */
  private scanNext(beforeEnd: boolean): void {
    const entry = this.queue.shift();
    if (entry === undefined) return;
    const { block, sequence } = entry;
    this.queued -= block.length;
    if (beforeEnd) this.searchAheadWhileWaiting(sequence);
    // The helper must be done with its slot before the slot is written again, wanted or not. A block it
    // had not begun ('self') is searched here as any other.
    const taken = entry.own ?? (sequence === null ? null : (this.helper?.take(sequence) ?? null));
    const own = taken === 'self' || taken === null;
    this.scanBlock(block, beforeEnd, !beforeEnd ? null : own ? this.prescanOwn(block) : taken);
    // Skipped lines still wanted as context are read now, while the block holds them.
    this.target.settle();
    if (
      sequence === null &&
      block.byteOffset === 0 &&
      block.buffer.byteLength === BLOCK_BYTES &&
      this.spare.length < SPARE_BLOCKS
    ) {
      this.spare.push(Buffer.from(block.buffer, 0, BLOCK_BYTES));
    }
  }

  /**
   * A block no helper searched is searched here the helper's way: its sieve counts the lines as it finds
   * the signs, so the block is read once (the sign search and a count of each span read it twice). Not
   * where the block begins closely read: that reading searches it for more than signs anyway.
   */
  private prescanOwn(block: Buffer): Prescan | null {
    return this.target.readsClosely(this.lines + 1) ? null : prescanBlock(block, this.options.maxLineLength);
  }

  /** While the helper searches the block needed now, this thread searches a later one it has not begun. */
  private searchAheadWhileWaiting(sequence: number | null): void {
    const helper = this.helper;
    if (helper === null || sequence === null || !helper.isBusyWith(sequence)) return;
    for (const later of this.queue) {
      if (later.sequence === null || later.own !== undefined) continue;
      if (!helper.claim(later.sequence)) continue;
      later.own = prescanBlock(later.block, this.options.maxLineLength);
      return;
    }
  }

  private scanBlock(chunk: Buffer, beforeEnd: boolean, prescan: Prescan | null): void {
    let bytes = chunk;
    if (!this.started) {
      this.started = true;
      if (BOM.every((byte, i) => bytes[i] === byte)) {
        bytes = bytes.subarray(BOM.length);
        prescan = null;
      }
    }
    const firstLf = prescan !== null && prescan.start > 0 ? prescan.start - 1 : bytes.indexOf(0x0a);
    if (this.carry !== null) {
      // The line begun in the last block ends here: read it alone, not by copying this block after it.
      if (firstLf === -1) {
        // Still no end: a line cut short drops these bytes, another keeps them.
        if (!this.carryCut) this.keepCarry(Buffer.concat([this.carry, bytes]));
        return;
      }
      const carried = this.carryCut
        ? this.carry
        : Buffer.concat([this.carry, bytes.subarray(0, firstLf + 1)]);
      const cutShort = this.carryCut;
      this.carry = null;
      this.carryCut = false;
      if (cutShort) this.readCut(carried);
      else this.scanSmall(carried, beforeEnd);
      bytes = bytes.subarray(firstLf + 1);
    } else if (prescan !== null && prescan.start > 0) {
      this.scanSmall(bytes.subarray(0, prescan.start), beforeEnd);
      bytes = bytes.subarray(prescan.start);
    }
    if (prescan !== null && prescan.start > 0) {
      // `bytes` now starts at the prescan's start: its offsets move by that much.
      this.scanPrescanned(bytes, prescan, beforeEnd);
      if (prescan.end < chunk.length) this.keepCarry(chunk.subarray(prescan.end));
      return;
    }
    const cut = bytes.lastIndexOf(0x0a) + 1;
    if (cut < bytes.length) this.keepCarry(bytes.subarray(cut));
    if (cut === 0) return;
    this.scanLineBlock(bytes.subarray(0, cut), beforeEnd);
  }

  /**
   * Whole lines a helper thread searched ahead: its hits are taken; a line the session asks for is read
   * here, and where the session asks for a close search the rest is searched here as usual.
   */
  private scanPrescanned(lines: Buffer, prescan: Prescan, beforeEnd: boolean): void {
    const shift = prescan.start;
    const end = prescan.end - shift;
    if (prescan.hasCarriageReturn || !beforeEnd) {
      this.scanLineBlock(lines.subarray(0, end), beforeEnd);
      return;
    }
    const { hits, linesBefore } = prescan;
    let pos = 0;
    let next = 0;
    let done = 0;
    while (pos < end) {
      if (this.target.needsLine(this.lines + 1)) {
        const lf = lines.indexOf(0x0a, pos);
        this.readBytes(lines, pos, lf);
        pos = lf + 1;
        done++;
        continue;
      }
      if (this.target.readsClosely(this.lines + 1)) {
        this.scanLineBlock(lines.subarray(pos, end), beforeEnd);
        return;
      }
      while (next < hits.length && (hits[next] as number) - shift < pos) next++;
      const more = next < hits.length;
      const hitStart = more ? (hits[next] as number) - shift : end;
      const count = (more ? (linesBefore[next] as number) : prescan.lines) - done;
      if (hitStart > pos) this.skipCounted(lines, pos, hitStart, count, prescan.longLines, shift);
      done += count;
      if (!more) return;
      const lf = lines.indexOf(0x0a, hitStart);
      this.readBytes(lines, hitStart, lf);
      done++;
      pos = lf + 1;
      next++;
    }
  }

  /** The line carried over a block's edge, with its newline. */
  private scanSmall(line: Buffer, beforeEnd: boolean): void {
    if (line.length > this.maxBytes) {
      this.readCut(line.subarray(0, this.maxBytes));
      return;
    }
    this.scanLineBlock(line, beforeEnd);
  }

  /** Whole lines, each ending in a newline. */
  private scanLineBlock(block: Buffer, beforeEnd: boolean): void {
    // Lone CRs end lines too (progress bars); such blocks are rare and take the line splitter's path.
    if (block.indexOf(0x0d) !== -1) this.splitter.push(block.toString('utf8'));
    else this.scanLines(block, beforeEnd);
  }

  private scanLines(block: Buffer, beforeEnd: boolean): void {
    loadBlock(block);
    const end = block.length;
    let pos = 0;
    while (pos < end) {
      if (this.target.needsLine(this.lines + 1)) {
        const lf = block.indexOf(0x0a, pos);
        this.readBytes(block, pos, lf);
        pos = lf + 1;
        continue;
      }
      const cheap = beforeEnd && !this.target.readsClosely(this.lines + 1);
      const hit = cheap ? nextSignOfDeath(block, pos) : MAY_MATTER_IN_BLOCK.find(block, pos, end);
      const hitStart = hit === -1 ? end : lineStartBefore(block, hit);
      if (hitStart > pos) this.skip(block, pos, hitStart);
      if (hit === -1) return;
      // The close reading may have ended among the lines just skipped: from there on the cheap search
      // decides, so a line past the window is read only where the policy reads it.
      if (!cheap && beforeEnd && !this.target.readsClosely(this.lines + 1)) {
        pos = hitStart;
        continue;
      }
      const lf = block.indexOf(0x0a, hitStart);
      this.readBytes(block, hitStart, lf);
      pos = lf + 1;
    }
  }

  /** Counts the lines in [from, to), which ends at a line's start, and hands them over unread. */
  private skip(block: Buffer, from: number, to: number): void {
    this.longStarts.length = 0;
    const count = countLines(block, from, to, this.options.maxLineLength, this.longStarts);
    this.countCut(block, this.longStarts, 0, from, to);
    this.handOver(block, from, to, count);
  }

  /** `skip` for a span whose lines a helper counted; `longLines` are its long ones, `shift` bytes on. */
  private skipCounted(
    block: Buffer,
    from: number,
    to: number,
    count: number,
    longLines: Int32Array,
    shift: number,
  ): void {
    this.countCut(block, longLines, shift, from, to);
    this.handOver(block, from, to, count);
  }

  /** Of the lines longer than the longest kept in bytes, counts those that are in characters too. */
  private countCut(block: Buffer, starts: ArrayLike<number>, shift: number, from: number, to: number): void {
    for (let i = 0; i < starts.length; i++) {
      const start = (starts[i] as number) - shift;
      if (start < from || start >= to) continue;
      const length = block.toString('utf8', start, block.indexOf(0x0a, start)).length;
      if (length > this.options.maxLineLength) this.cutLines++;
    }
  }

  private handOver(block: Buffer, from: number, to: number, count: number): void {
    this.lines += count;
    const kept = Math.min(count, SKIPPED_KEPT);
    this.target.skipLines(count, new SkippedSpan(block, from, to, kept, this.options.maxLineLength));
  }

  private readBytes(block: Buffer, start: number, lf: number): void {
    const raw = block.toString('utf8', start, lf);
    if (raw.length > this.options.maxLineLength) this.cutLines++;
    this.lines++;
    this.target.readLine(this.cutLine(raw));
  }

  /** A line from the line splitter (a block with CRs): it has counted and cut it already. */
  private readText(line: string): void {
    this.lines++;
    this.target.readLine(line);
  }

  /** The log's last line, which has no newline after it. */
  private readLast(bytes: Buffer): void {
    if (this.carryCut) this.readCut(bytes);
    else if (bytes.indexOf(0x0d) !== -1) this.splitter.push(bytes.toString('utf8'));
    else this.readBytes(bytes, 0, bytes.length);
  }

  /** A line that passed the longest kept: what was kept of it, cut and counted. */
  private readCut(bytes: Buffer): void {
    this.cutLines++;
    this.lines++;
    this.target.readLine(this.cutLine(bytes.toString('utf8')));
  }

  private keepCarry(rest: Buffer): void {
    // A copy: the carried bytes must not pin the block they came from, which is written again.
    this.carryCut = rest.length > this.maxBytes;
    this.carry = Buffer.from(this.carryCut ? rest.subarray(0, this.maxBytes) : rest);
  }

  private cutLine(raw: string): string {
    return raw.length > this.options.maxLineLength ? raw.slice(0, this.options.maxLineLength) : raw;
  }
}

/** Moves a region's bytes other than NUL to its start; returns how many there are. */
function dropNul(region: Uint8Array): number {
  let kept = 0;
  for (let i = 0; i < region.length; i++) {
    const byte = region[i] as number;
    if (byte !== 0) region[kept++] = byte;
  }
  return kept;
}
