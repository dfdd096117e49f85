import type { ProgressState } from '../progress/index.js';
import { renderMetrics } from '../reporting/render-metrics.js';
import { renderTerminationLog } from '../reporting/termination-log.js';
import { replaceFile } from '../system/safe-write.js';
import { describeError } from '../errors.js';
import { updateStats, writeAtomically, type StartStats } from './history-store.js';
import type { StartFailure } from './monitor/types.js';

export interface StartRecorderOptions {
  /** The history file that keeps the counters across starts; null with --no-history (this run only). */
  historyFile: string | null;
  key: string;
  /** The counters as the history file held them before this start. */
  stats: StartStats | null;
  metricsFile: string | null;
  terminationLog: string | null;
  warn: (text: string) => void;
  now?: () => number;
}

export interface StartRecorder {
  started(): void;
  progress(state: ProgressState, elapsedMs: number): void;
  verdict(verdict: string): void;
  ready(): void;
  failed(failure: StartFailure, summary: string): void;
  /** A write of the caller's to wait for at close. */
  track(write: Promise<void>): void;
  close(): Promise<void>;
}

const REFRESH_MS = 15_000;

/**
 * What a start leaves for the places servers run: the counters in the history file, the node_exporter
 * textfile (rewritten whole at each change, atomically), and the termination message on failure.
 */
export function openStartRecorder(options: StartRecorderOptions): StartRecorder {
  const now = options.now ?? Date.now;
  let stats: StartStats = options.stats ?? { starts: 0, failures: {}, lastReadyAt: null };
  let phase: string | null = null;
  let phaseSince = now();
  let verdict = 'loading';
  const pending: Promise<void>[] = [];
  let metricsWrite: Promise<void> = Promise.resolve();

  const writeMetrics = (): void => {
    const file = options.metricsFile;
    if (file === null) return;
    const text = renderMetrics({
      phase,
      verdict,
      phaseSeconds: (now() - phaseSince) / 1000,
      starts: stats.starts,
      failures: stats.failures,
      lastReadySeconds: stats.lastReadyAt === null ? null : Date.parse(stats.lastReadyAt) / 1000,
    });
    metricsWrite = metricsWrite
      .then(() => writeAtomically(file, text))
      .catch((error: unknown) => options.warn(`could not write --metrics-file ${file}: ${String(error)}`));
  };
  const refresh = options.metricsFile === null ? null : setInterval(writeMetrics, REFRESH_MS);
  refresh?.unref();

  const count = (change: (stats: StartStats) => void): void => {
    change(stats);
    writeMetrics();
    const file = options.historyFile;
    if (file === null) return;
    pending.push(
      updateStats(file, options.key, change).then(
        (written) => {
          stats = { ...written, starts: Math.max(written.starts, stats.starts) };
        },
        (error: unknown) => options.warn(`could not record the start in ${file}: ${String(error)}`),
      ),
    );
  };

  return {
    started() {
      count((current) => {
        current.starts += 1;
      });
    },
    progress(state) {
      const next = state.phase?.id ?? null;
      if (next === phase) return;
      phase = next;
      phaseSince = now();
      writeMetrics();
    },
    verdict(next) {
      verdict = next;
      writeMetrics();
    },
    ready() {
      verdict = 'ready';
      phase = 'ready';
      phaseSince = now();
      const at = new Date(now()).toISOString();
      count((current) => {
        current.lastReadyAt = at;
      });
    },
    failed(failure, summary) {
      verdict = 'failed';
      const id = failureId(failure);
      count((current) => {
        current.failures[id] = (current.failures[id] ?? 0) + 1;
      });
      const file = options.terminationLog;
      if (file === null) return;
      const root = failure.diagnosis.rootCause;
      const cause =
        root === null ? '' : `\n${root.exception === null ? '' : `${root.exception}: `}${root.message}`;
      const text = renderTerminationLog({
        id,
        message: `${summary}.${cause}`,
        fix: failure.diagnosis.signature?.fix,
      });
      pending.push(
        replaceFile(file, text, '--termination-log').catch((error: unknown) =>
          options.warn(`could not write --termination-log ${file}: ${describeError(error)}`),
        ),
      );
    },
    track(write) {
      pending.push(write);
    },
    async close() {
      if (refresh !== null) clearInterval(refresh);
      await Promise.all(pending);
      writeMetrics();
      await metricsWrite;
    },
  };
}

/** The id a failure is counted under: its signature's, else what ended it. */
export function failureId(failure: StartFailure): string {
  const signature = failure.diagnosis.signature?.id;
  if (signature !== undefined) return signature;
  if (failure.reason !== 'exit') return `start-${failure.reason}`;
  if (failure.exit?.signal === 'SIGKILL') return 'killed';
  return 'unknown';
}
