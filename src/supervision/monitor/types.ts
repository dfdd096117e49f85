import type { PhaseVisit, ProgressState } from '../../progress/index.js';
import type { Diagnosis } from '../../types/diagnosis.js';
import type { KillFinding } from './explain-kill.js';

export type FailureReason = 'exit' | 'timeout' | 'hang' | 'dead' | 'stall';

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A phase that went longer without progress than it may: a warning, not a failure (unless told). */
export interface StallNotice {
  phase: PhaseVisit | null;
  /** The last line the server printed, or null before any. */
  lastLine: string | null;
  /** How long nothing has advanced the phase. */
  quietMs: number;
  boundMs: number;
  boundFrom: 'history' | 'engine' | 'default' | 'flag';
}

/** Everything a crash report says: why, when, in which phase, and the diagnosis of this run's output. */
export interface StartFailure {
  reason: FailureReason;
  /** How the server ended; null while it still runs (timeout, hang, dead engine) at the time of the report. */
  exit: ExitStatus | null;
  /** How it ended in the words of whoever saw it, when no exit status says it (systemd's result). */
  endedBy?: string;
  /** For a death by a signal it did not send itself: who most likely sent it. */
  killer?: KillFinding | null;
  /** For a kill no killer is known for: what was looked at (`the kernel log holds no OOM kill of PID 4242`). */
  killNote?: string;
  ranMs: number;
  ready: boolean;
  phase: PhaseVisit | null;
  /** For a timeout, hang or stall: how long the server has been in its last phase. */
  phaseMs: number | null;
  progress: ProgressState;
  diagnosis: Diagnosis;
  /** The line that said the engine died (reason 'dead'). */
  deathLine?: string;
  /** For reason 'stall': the stall that went on past --stall-timeout. */
  stall?: StallNotice;
  /** The last lines of output, for a report where the diagnosis found nothing. */
  lastLines: string[];
  /** performance.now() when the server's exit was seen (reason 'exit'), to measure the report's delay. */
  exitSeenAt: number | null;
}
