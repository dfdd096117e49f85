/** The vocabulary shared by parsing, diagnosis, signatures and reporting. Types only. */
import type { FixAction } from '../fix/fix-action.js';

export const CATEGORIES = [
  'dependency-mismatch',
  'missing-dependency',
  'abi-or-symbol',
  'gpu-arch-unsupported',
  'driver-cuda-mismatch',
  'oom-gpu',
  'kv-cache-insufficient',
  'config-invalid',
  'model-load-weights',
  'model-unsupported-arch',
  'auth-or-download',
  'network-port',
  'distributed-nccl',
  'distributed-ray',
  'kernel-compile',
  'illegal-memory-access',
  'other',
] as const;
export type Category = (typeof CATEGORIES)[number];

export const ENGINES = ['vllm', 'sglang', 'tgi', 'trtllm', 'llamacpp', 'ollama', 'lmdeploy'] as const;
export type Engine = (typeof ENGINES)[number];

export interface SourceSite {
  file: string;
  line: number;
  function: string;
}

export interface RootCause {
  /** Python exception type as printed (`torch.OutOfMemoryError`), or null for a non-Python failure. */
  exception: string | null;
  message: string;
  /** The raw input line where the message starts. */
  line: string;
  lineNumber: number;
  processes: string[];
  raiseSite: SourceSite | null;
  crashSite: SourceSite | null;
}

export interface SignatureMatch {
  id: string;
  title: string;
  category: Category;
  explanation: string;
  /** The fix as shown and copied: commands quoted for the shell they are printed for, or a step in words. */
  fix: string;
  /** What the fix changes, as data (src/fix renders it for the place, environment and engine). */
  action?: FixAction[];
  alternative?: string;
  /** A change that does not outlive a container (docker exec), to try before the image is rebuilt. */
  tryNow?: string;
  /** The command that shows the fix worked, run in the same place. */
  verify?: string;
  references?: string[];
}

/**
 * Where a root cause no signature knows belongs, from what any failure shows (its exception, its words,
 * the package it was raised in, the phase). A general explanation, never a known signature's.
 */
export interface GeneralCategory {
  category: Category;
  /** What failures of this category mean, and where to look first. */
  meaning: string;
  /** A web search for the root cause's message, its variable parts left out. */
  searchUrl: string;
  /** The evidence that placed it, e.g. `raised in flashinfer`, `message: "out of memory"`. */
  basis: string[];
}

export interface FailureGroup {
  exception: string | null;
  message: string;
  processes: string[];
  count: number;
  firstLineNumber: number;
}

export interface ServiceSummary {
  unit: string | null;
  starts: number;
  failedStarts: number;
  restartLoop: boolean;
  lastExit: string | null;
}

export interface EvidenceLine {
  lineNumber: number;
  text: string;
}

export interface Diagnosis {
  schemaVersion: 1;
  verdict: 'failure' | 'no-failure';
  rootCause: RootCause | null;
  signature: SignatureMatch | null;
  /** The general classifier's category when no signature matched the root cause. */
  general?: GeneralCategory | null;
  groups: FailureGroup[];
  service: ServiceSummary | null;
  /** Lines that show the failure, in input order, raw. */
  evidence: EvidenceLine[];
  /** The wrapper errors that pointed elsewhere, e.g. "Engine core initialization failed". */
  symptoms: FailureGroup[];
  engine: Engine | null;
  /** The engine's version where the log prints it at start-up (its latest start), else null. */
  engineVersion: string | null;
  /** Every process label seen in the log (capped), so reports can say "8/8 workers". */
  processes: string[];
  noiseSuppressed: number;
  /** The unit is up again: its latest start runs since then, and the failure above is an earlier one's. */
  current?: { state: 'running'; since: string };
  /**
   * With no failure found, what the log shows of the last start: it said it was ready, it was stopped as
   * asked, or neither (the log ends before any sign of health: still loading, or dead without a word).
   */
  health?: 'ready' | 'stopped' | 'unseen';
  /**
   * For a death that names no cause (a signal, an exit status, a worker that died unexpectedly): the
   * server's own last lines before it, oldest first, to show what it was doing when it died.
   */
  lastWords?: string[];
  input: {
    lines: number;
    bytes: number;
    formats: string[];
    truncatedLines: number;
    /** What was read, as the log-target layer describes it ("journal of x.service, ... on gpu-1"). */
    source?: string;
    /** The stream broke off (a lost connection): the diagnosis is of the part that was read. */
    partial?: boolean;
  };
  warnings: string[];
}
