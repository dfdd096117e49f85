import type { ParsedLine } from '../parsing/parsed-line.js';
import type { Frame } from '../parsing/traceback.js';
import type { Phase } from './knowledge/phases.js';

/** Something in the log that could be the root cause. */
export interface Candidate {
  kind: 'exception' | 'failure-line' | 'error-line' | 'hint';
  exception: string | null;
  message: string;
  /** Where the message starts. */
  line: ParsedLine;
  frames: Frame[];
  /** Lines of a multi-line message (compiler output, supported-architecture lists). */
  detail: string[];
  /** Prior strength as a root cause, before signatures weigh in. */
  strength: number;
  /** Proves by itself that the start failed. */
  fatal: boolean;
  /** Only points at a cause elsewhere. */
  wrapper: boolean;
  /** Innermost causes of a chain get a bonus: the first exception is usually the cause. */
  chainBonus: number;
  /** Where it was raised earlier in a chain (`... was the direct cause of ...`): the exceptions it led to. */
  ledTo?: Candidate[];
  /** Index of the start (attempt) the candidate belongs to. */
  attempt: number;
  afterReady: boolean;
  /** A crash whenever it happens (CUDA errors, segfaults): counts after readiness too. */
  crash: boolean;
  fingerprint: string;
  /** What its traceback was doing: starting the server or answering a request (knowledge/phases.ts). */
  phase: Phase | null;
  /** The attempt's count of ordinary lines after readiness when this was found (attempt.ts). */
  chatterBefore: number;
  /** The attempt's count of ordinary lines (before readiness too) when this was found (attempt.ts). */
  workBefore: number;
  /** Raw lines around the candidate in the same start, for signatures' `context` patterns. */
  context: string[];
  /** How many of `context`'s lines came before the candidate. */
  contextBefore: number;
  /** The line of its group's latest copy, where the log repeated it (every thread's device assert). */
  lastCopyLine?: number;
}
