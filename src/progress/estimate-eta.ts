import type { Engine } from '../types/diagnosis.js';
import type { ProgressState } from './track-progress.js';

/** One earlier successful start of the same command, as kept in the history. */
export interface StartRecord {
  /** ISO time of the start. */
  at: string;
  engine: Engine | null;
  /** Milliseconds from the start to ready. */
  readyMs: number;
  /** When each phase was reached, in milliseconds from the start. */
  phases: { id: string; atMs: number }[];
}

/**
 * Milliseconds left until ready, from the earlier starts of the same command: for each, the time it still
 * took from the phase we are in to ready, less the time already spent in that phase; the median of those.
 * Before any phase, or when no earlier start passed through this phase, it is their median time to ready
 * less the time elapsed. Null without history, or once ready.
 */
export function estimateRemainingMs(
  state: ProgressState,
  elapsedMs: number,
  history: readonly StartRecord[],
): number | null {
  if (state.readyAtMs !== null || history.length === 0) return null;
  const phase = state.phase;
  if (phase !== null) {
    const spent = elapsedMs - phase.atMs;
    const left = history.flatMap((record) => {
      const reached = record.phases.find((visit) => visit.id === phase.id);
      return reached === undefined ? [] : [record.readyMs - reached.atMs - spent];
    });
    if (left.length > 0) return Math.max(0, median(left));
  }
  return Math.max(0, median(history.map((record) => record.readyMs)) - elapsedMs);
}

/** The record of a start that became ready, for the history. */
export function recordStart(state: ProgressState, startedAt: Date): StartRecord | null {
  if (state.readyAtMs === null) return null;
  return {
    at: startedAt.toISOString(),
    engine: state.engine,
    readyMs: Math.round(state.readyAtMs),
    phases: state.visits.map((visit) => ({ id: visit.id, atMs: Math.round(visit.atMs) })),
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? 0;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? upper) + upper) / 2;
}
