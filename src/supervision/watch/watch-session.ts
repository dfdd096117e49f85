import type { DiagnosisSession } from '../../diagnosis/api.js';
import type { ProgressState } from '../../progress/index.js';
import type { Engine } from '../../types/diagnosis.js';
import { probeHealth } from '../probe-health.js';
import type { ExitStatus, StartFailure } from '../supervise-server.js';
import { trackInvocations, type InvocationSummary, type ServiceRecord } from './track-invocations.js';

export interface WatchOptions {
  engine?: Engine | null;
  healthUrl?: URL | null;
  healthIntervalMs?: number;
  /** Fails a start that is not ready this long after it began. */
  timeoutMs?: number | null;
  /** How long a start that logged a fatal error may go on before it counts as hung. */
  fatalGraceMs?: number;
  createDiagnosisSession: () => DiagnosisSession;
  onEvent?: (event: WatchEvent) => void;
}

export type WatchEvent =
  | { type: 'note'; text: string }
  | { type: 'progress'; state: ProgressState; elapsedMs: number }
  | { type: 'ready'; elapsedMs: number; invocation: InvocationSummary }
  | {
      type: 'failure';
      failure: StartFailure;
      invocation: InvocationSummary;
      failedStarts: number;
      restartLoop: boolean;
    };

export type WatchOutcome =
  | { kind: 'ready'; invocation: InvocationSummary }
  | { kind: 'failed'; failure: StartFailure; invocation: InvocationSummary; failedStarts: number }
  | { kind: 'inactive' };

/**
 * The part of a watch that does not care where lines come from: invocations, progress, readiness by log
 * or health URL, the timeout and the hang, and the report of a failed start from its own lines.
 */
export class WatchSession {
  readonly tracker;
  private live = false;
  private settle: ((outcome: WatchOutcome) => void) | null = null;
  readonly outcome: Promise<WatchOutcome>;
  private readonly timers: NodeJS.Timeout[] = [];
  private fatalSince: number | null = null;
  private healthBusy = false;
  private restarts = 0;

  constructor(private readonly options: WatchOptions) {
    this.tracker = trackInvocations({
      engine: options.engine ?? null,
      readyFromLog: options.healthUrl === undefined || options.healthUrl === null,
      createDiagnosisSession: options.createDiagnosisSession,
    });
    this.outcome = new Promise((resolve) => {
      this.settle = resolve;
    });
  }

  private emit(event: WatchEvent): void {
    this.options.onEvent?.(event);
  }

  /** Feeds one record. Before `goLive`, a backlog: state is kept, nothing is decided yet. */
  push(record: ServiceRecord): void {
    if (this.settle === null) return;
    const previous = this.tracker.current();
    const phase = previous?.progress.phase?.id;
    this.tracker.push(record);
    const current = this.tracker.current();
    if (current === null) return;
    if (this.live && (current.progress.phase?.id !== phase || current !== previous)) {
      this.emit({ type: 'progress', state: current.progress, elapsedMs: Date.now() - current.startedAtMs });
    }
    if (this.live) this.decide();
  }

  /** The backlog is read: decide on what it showed, then decide on each new record as it comes. */
  goLive(follow: boolean): void {
    this.live = true;
    this.decide();
    const current = this.tracker.current();
    if (current !== null && current.status === 'starting' && this.settle !== null) {
      this.emit({ type: 'progress', state: current.progress, elapsedMs: Date.now() - current.startedAtMs });
    }
    if (this.settle === null || !follow) return;
    if (this.options.healthUrl) this.pollHealth(this.options.healthUrl);
    this.timers.push(setInterval(() => this.tick(), 500));
  }

  /** Failed starts the runtime counted (docker RestartCount, kubectl restartCount, plus this one). */
  setRestarts(failedStarts: number): void {
    this.restarts = Math.max(this.restarts, failedStarts);
  }

  /** An outside verdict (docker inspect, kubectl): the current start ended. */
  end(exitText: string, failed: boolean, atMs: number): void {
    this.tracker.end(exitText, failed, atMs);
    if (this.live) this.decide();
  }

  /** Where following stops without a verdict (--no-follow, the source ended): what the journal showed. */
  finish(): void {
    if (this.settle === null) return;
    this.resolve({ kind: 'inactive' });
  }

  private resolve(outcome: WatchOutcome): void {
    const settle = this.settle;
    if (settle === null) return;
    this.settle = null;
    for (const timer of this.timers) clearTimeout(timer);
    settle(outcome);
  }

  private decide(): void {
    const current = this.tracker.current();
    if (current === null || this.settle === null) return;
    if (current.status === 'ready') {
      this.emit({ type: 'ready', elapsedMs: current.progress.readyAtMs ?? 0, invocation: current });
      this.resolve({ kind: 'ready', invocation: current });
    } else if (current.status === 'failed') {
      this.fail(current, 'exit', null);
    }
  }

  private fail(invocation: InvocationSummary, reason: StartFailure['reason'], now: number | null): void {
    const diagnosis = invocation.diagnosis ?? this.tracker.peek();
    if (diagnosis === null) return;
    const ranMs = (invocation.endedAtMs ?? now ?? Date.now()) - invocation.startedAtMs;
    const failure: StartFailure = {
      reason,
      exit: reason === 'exit' ? parseSystemdExit(invocation.exit) : null,
      endedBy: invocation.exit === null ? undefined : `ended: ${invocation.exit}`,
      ranMs,
      ready: false,
      phase: invocation.progress.phase,
      phaseMs: now === null ? null : now - invocation.startedAtMs - (invocation.progress.phase?.atMs ?? 0),
      progress: invocation.progress,
      diagnosis,
      lastLines: [],
      exitSeenAt: null,
    };
    if (reason !== 'exit') failure.endedBy = undefined;
    const failedStarts = Math.max(this.tracker.failedStarts(), this.restarts, reason === 'exit' ? 1 : 0);
    this.emit({ type: 'failure', failure, invocation, failedStarts, restartLoop: failedStarts >= 2 });
    this.resolve({ kind: 'failed', failure, invocation, failedStarts });
  }

  private tick(): void {
    const current = this.tracker.current();
    if (current === null || current.status !== 'starting' || this.settle === null) return;
    const now = Date.now();
    const timeout = this.options.timeoutMs;
    if (timeout !== undefined && timeout !== null && now - current.startedAtMs > timeout) {
      this.fail(current, 'timeout', now);
      return;
    }
    if (this.fatalSince === null) {
      if (this.tracker.peek()?.verdict === 'failure') this.fatalSince = now;
    } else if (now - this.fatalSince > (this.options.fatalGraceMs ?? 15_000)) {
      this.fail(current, 'hang', now);
    }
  }

  private pollHealth(url: URL): void {
    const interval = this.options.healthIntervalMs ?? 2000;
    const timer = setInterval(() => {
      if (this.healthBusy || this.settle === null) return;
      this.healthBusy = true;
      void probeHealth(url, Math.max(500, Math.min(interval, 5000))).then((healthy) => {
        this.healthBusy = false;
        if (!healthy || this.settle === null) return;
        if (this.tracker.markReady(Date.now()) !== null) this.decide();
      });
    }, interval);
    this.timers.push(timer);
  }
}

/** systemd's `exited 1/FAILURE`, `killed 9/KILL`, `dumped 11/SEGV` as an exit status. */
export function parseSystemdExit(text: string | null): ExitStatus | null {
  const match = /^(exited|killed|dumped) (\d+)(?:\/(\w+))?/.exec(text ?? '');
  if (match === null) return null;
  if (match[1] === 'exited') return { code: Number(match[2]), signal: null };
  return { code: null, signal: `SIG${match[3] ?? match[2]}` as NodeJS.Signals };
}
