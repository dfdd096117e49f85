import { ENGINE_PROGRESS, type EngineProgressSpec } from '../../progress/index.js';
import type { Engine } from '../../types/diagnosis.js';
import type { MonitorState } from '../monitor/start-monitor.js';

/**
 * Whether a line of a plain log file begins a new start of the server. A file has no invocation ids: a
 * start is known by the engine's first phase line (`vLLM API server version`) arriving when the current
 * start is already past that phase, or over. The first phase's own lines that follow it (`non-default
 * args`) stay in the start they open.
 */
export function beginsNewStart(
  line: string,
  current: MonitorState | null,
  engine: Engine | null,
  specs: readonly EngineProgressSpec[] = ENGINE_PROGRESS,
): boolean {
  const first = specs
    .filter((spec) => engine === null || spec.engine === engine)
    .find((spec) => spec.phases[0]?.lines.some((pattern) => pattern.test(line)) === true);
  if (first === undefined) return false;
  if (current === null) return true;
  if (current.ended || current.failure !== null) return true;
  const phase = current.progress.phase;
  return phase !== null && phase.id !== first.phases[0]?.id;
}

/**
 * A start's name in a log file: its inode and byte offset, and a hash of its first line, since a restart
 * script that truncates the file begins every start at offset 0 (its first line carries the time or PID).
 */
export function nameLogStart(file: string, offset: number, firstLine: string): string {
  return `${file}:${offset}:${hashText(firstLine)}`;
}

/** FNV-1a, 32 bits, as hex: a short stable name, not a secret. */
export function hashText(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
