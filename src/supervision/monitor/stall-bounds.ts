import { DEFAULT_STALL_MS, type EngineProgressSpec, type StartRecord } from '../../progress/index.js';

/** Before the first phase: the engine is still importing Python and parsing its arguments. */
const BEFORE_FIRST_PHASE_MS = 5 * 60_000;
/** A phase may take this many times its longest earlier run, plus SLACK_MS, before it counts as stalled. */
const HISTORY_FACTOR = 2;
const SLACK_MS = 60_000;

/** How long each phase took in one earlier start: until the next phase, the last one until ready. */
export function phaseDurations(record: StartRecord): Map<string, number> {
  const durations = new Map<string, number>();
  record.phases.forEach((visit, index) => {
    const next = record.phases[index + 1]?.atMs ?? record.readyMs;
    durations.set(visit.id, Math.max(0, next - visit.atMs));
  });
  return durations;
}

/**
 * Milliseconds phase `phaseId` (null: before any phase) may go without progress before it is stalled:
 * from the earlier starts of the same command when they passed through it (twice the longest, plus a
 * minute), else the engine's own bound for the phase, else DEFAULT_STALL_MS.
 */
export function stallBoundMs(
  phaseId: string | null,
  history: readonly StartRecord[],
  spec: EngineProgressSpec | null,
): { ms: number; from: 'history' | 'engine' | 'default' } {
  if (phaseId === null) {
    const firsts = history.flatMap((record) => (record.phases[0] ? [record.phases[0].atMs] : []));
    if (firsts.length > 0) return { ms: Math.max(...firsts) * HISTORY_FACTOR + SLACK_MS, from: 'history' };
    return { ms: BEFORE_FIRST_PHASE_MS, from: 'default' };
  }
  const seen = history.flatMap((record) => {
    const duration = phaseDurations(record).get(phaseId);
    return duration === undefined ? [] : [duration];
  });
  if (seen.length > 0) return { ms: Math.max(...seen) * HISTORY_FACTOR + SLACK_MS, from: 'history' };
  const own = spec?.stallMs?.[phaseId];
  if (own !== undefined) return { ms: own, from: 'engine' };
  return { ms: DEFAULT_STALL_MS, from: 'default' };
}
