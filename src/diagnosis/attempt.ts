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
  /** Service-level failure (systemd saw the main process exit non-zero). */
  exitedWithFailure: boolean;
  groups: Map<string, Group>;
  /** Candidates in input order, one per group. */
  candidates: Candidate[];
}

export function createAttempt(index: number, firstLine: number): Attempt {
  return {
    index,
    firstLine,
    readyLine: null,
    diedAfterReady: false,
    exitedWithFailure: false,
    groups: new Map(),
    candidates: [],
  };
}

/** Candidates that count: after readiness only when the server then died. */
export function eligibleCandidates(attempt: Attempt): Candidate[] {
  return attempt.candidates.filter((c) => !c.afterReady || c.crash || attempt.diedAfterReady);
}

export function hasFatalEvidence(attempt: Attempt): boolean {
  return attempt.exitedWithFailure || eligibleCandidates(attempt).some((c) => c.fatal);
}
