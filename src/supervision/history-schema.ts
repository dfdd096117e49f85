import type { StartRecord } from '../progress/index.js';

/** The start history file (history-store.ts), as `appendStart` writes it. */
export interface HistoryFile {
  version: 1;
  commands: Record<string, { lastUsed: string; runs: HistoryRun[]; stats?: StartStats }>;
}

/** Counts kept across starts for the metrics file: starts, failures by signature id, the last ready time. */
export interface StartStats {
  starts: number;
  failures: Record<string, number>;
  /** ISO time the server last became ready. */
  lastReadyAt: string | null;
}

type HistoryRun = Omit<StartRecord, 'engine'> & { engine: string | null };

/**
 * The file's contents when they have its shape, else null. Checked by hand, not with zod: this runs at
 * every `vigil run`'s start, whose CPU is measured, and zod is most of a start-up's module code.
 */
export function parseHistory(value: unknown): HistoryFile | null {
  if (!isObject(value) || value.version !== 1 || !isObject(value.commands)) return null;
  for (const entry of Object.values(value.commands)) {
    if (!isObject(entry) || typeof entry.lastUsed !== 'string' || !Array.isArray(entry.runs)) return null;
    if (!entry.runs.every(isRun)) return null;
    if (entry.stats !== undefined && !isStats(entry.stats)) return null;
  }
  return value as unknown as HistoryFile;
}

function isRun(run: unknown): boolean {
  return (
    isObject(run) &&
    typeof run.at === 'string' &&
    (run.engine === null || typeof run.engine === 'string') &&
    typeof run.readyMs === 'number' &&
    run.readyMs >= 0 &&
    Array.isArray(run.phases) &&
    run.phases.every(
      (phase) => isObject(phase) && typeof phase.id === 'string' && typeof phase.atMs === 'number',
    )
  );
}

function isStats(stats: unknown): boolean {
  return (
    isObject(stats) &&
    typeof stats.starts === 'number' &&
    isObject(stats.failures) &&
    Object.values(stats.failures).every((count) => typeof count === 'number') &&
    (stats.lastReadyAt === null || typeof stats.lastReadyAt === 'string')
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
