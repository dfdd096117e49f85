import type { ParsedLine } from '../parsing/parsed-line.js';
import { readLineTime } from '../timeline/read-line-time.js';
import type { StopMark } from './attempt.js';

/** How many lines before a stop are searched for the last one with a time. */
export const STALL_LOOKBACK = 20;

/** A line's time, where the process wrote one, whatever tag came before it (`[2026-06-04 21:25:24] ...`). */
function timeOf(raw: string): number | null {
  return readLineTime(raw)?.ms ?? null;
}

/** The stop, with the silence before it as the lines' clocks tell it. `before`: the lines before, oldest first. Pure. */
export function markStop(line: ParsedLine, before: readonly string[]): StopMark {
  const at = timeOf(line.raw);
  for (let i = before.length - 1; i >= 0 && at !== null; i--) {
    const raw = before[i] as string;
    const then = timeOf(raw);
    if (then !== null && then <= at) return { line, silentMs: at - then, lastBefore: raw };
  }
  return { line, silentMs: null, lastBefore: null };
}
