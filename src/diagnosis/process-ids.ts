import type { ParsedLine } from '../parsing/parsed-line.js';

/** The process id in a line's process tag (`(EngineCore pid=3619953) ERROR ...`): vLLM's, and Ray's `pid=N`. */
const PID = /^\((?:[^()\s]+ )?pid=(\d+)(?:,[^)]*)?\)/;

/** Where the tags hold no pid (most lines of most engines), nothing is kept. */
const MAX_KEPT = 256;

/** Reads the process id from a line's tag; null where it has none. Pure. */
export function pidOf(raw: string): string | null {
  return raw.charCodeAt(0) === 40 ? (PID.exec(raw)?.[1] ?? null) : null;
}

/**
 * The first line each tagged process (a name and its pid) was seen on: a death reported after a shutdown
 * by a process that was there before it is that run's unwinding, not a later run's failure.
 */
export class ProcessIds {
  private readonly firstSeen = new Map<string, number>();

  note(line: ParsedLine): void {
    if (line.process === null || this.firstSeen.size >= MAX_KEPT) return;
    const pid = pidOf(line.raw);
    if (pid === null) return;
    const key = `${line.process}:${pid}`;
    if (!this.firstSeen.has(key)) this.firstSeen.set(key, line.n);
  }

  /** Whether the line's process was seen before line `n`. */
  seenBefore(line: ParsedLine, n: number): boolean {
    const pid = line.process === null ? null : pidOf(line.raw);
    if (pid === null) return false;
    return (this.firstSeen.get(`${line.process}:${pid}`) ?? Infinity) < n;
  }
}
