import type { Candidate } from './candidate.js';

/** A group of identical failures across processes within one start. */
export interface Group {
  representative: Candidate;
  processes: Set<string>;
  count: number;
}

/** One start of the server, from a start marker to the next. */
export interface Attempt {
  index: number;
  firstLine: number;
  readyLine: number | null;
  /** A death marker after readiness: failures after it are a crash, not a failed request. */
  diedAfterReady: boolean;
  /** The first death marker after readiness. */
  deathLine: number | null;
  /** Service-level failure (systemd saw the main process exit non-zero). */
  exitedWithFailure: boolean;
  groups: Map<string, Group>;
  /** How many groups hold fatal candidates. */
  fatalGroups: number;
  /** Candidates in input order, one per group. */
  candidates: Candidate[];
}

export function createAttempt(index: number, firstLine: number): Attempt {
  return {
    index,
    firstLine,
    readyLine: null,
    diedAfterReady: false,
    deathLine: null,
    exitedWithFailure: false,
    groups: new Map(),
    fatalGroups: 0,
    candidates: [],
  };
}

/**
 * Lines before the death that can still explain it. A server that served for days logged many warnings
 * and failed requests; only the last stretch before it died speaks of the crash.
 */
const DEATH_WINDOW = 2000;

/** Candidates that count: after readiness only crashes, or what came shortly before the server died. */
export function eligibleCandidates(attempt: Attempt): Candidate[] {
  return attempt.candidates.filter((c) => {
    if (!c.afterReady || c.crash) return true;
    if (!attempt.diedAfterReady || attempt.deathLine === null) return false;
    return c.fatal || c.line.n >= attempt.deathLine - DEATH_WINDOW;
  });
}

export function hasFatalEvidence(attempt: Attempt): boolean {
  return attempt.exitedWithFailure || eligibleCandidates(attempt).some((c) => c.fatal);
}
