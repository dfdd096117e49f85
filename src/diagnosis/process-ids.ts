import type { ParsedLine } from '../parsing/parsed-line.js';

/** The process id in a line's process tag (`(EngineCore pid=3619953) ERROR ...`): vLLM's, and Ray's `pid=N`. */
const PID = /^\((?:[^()\s]+ )?pid=(\d+)(?:,[^)]*)?\)/;

/**
 * A syslog line's program and pid (`Jan 30 22:13:35 host ollama[14727]: ...`, journalctl's short and
 * short-iso forms): journald files what a service writes to its output under the process that opened the
 * stream, its main process, so a new pid of the service is a new run of it.
 */
const SYSLOG_PID =
  /^(?:[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d|\d{4}-\d\d-\d\dT[\d:.]+(?:[+-]\d\d:?\d\d|Z)?) \S+ ([^\s[\]]+)\[(\d+)\]: /;

/**
 * Where the tags hold no pid (most lines of most engines), nothing is kept; past this many processes the
 * first seen is let go (a long journal of restarts), so the recent ones are always known.
 */
const MAX_KEPT = 1024;

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
    const key = keyOf(line);
    if (key === null || this.firstSeen.has(key)) return;
    if (this.firstSeen.size >= MAX_KEPT) this.firstSeen.delete(this.firstSeen.keys().next().value as string);
    this.firstSeen.set(key, line.n);
  }

  /** Whether the line's process was seen before line `n`. */
  seenBefore(line: ParsedLine, n: number): boolean {
    const key = tagKeyOf(line);
    return key !== null && (this.firstSeen.get(key) ?? Infinity) < n;
  }

  /**
   * Whether the line was written by a service's process first seen at or after line `n` (syslog lines
   * only, where one pid stands for the whole service): a process started after a stop is a new run.
   */
  startedAfter(line: ParsedLine, n: number): boolean {
    const key = syslogKeyOf(line.raw);
    return key !== null && (this.firstSeen.get(key) ?? line.n) >= n;
  }
}

function keyOf(line: ParsedLine): string | null {
  return tagKeyOf(line) ?? syslogKeyOf(line.raw);
}

/** The process tag's name and pid (`EngineCore:3619953`); null where the tag holds no pid. */
function tagKeyOf(line: ParsedLine): string | null {
  const pid = line.process === null ? null : pidOf(line.raw);
  return pid === null ? null : `${line.process}:${pid}`;
}

function syslogKeyOf(raw: string): string | null {
  const m = SYSLOG_PID.exec(raw);
  return m === null ? null : `${m[1]}[${m[2]}]`;
}
