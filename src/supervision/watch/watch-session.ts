import type { DiagnosisSession } from '../../diagnosis/api.js';
import type { ProgressState } from '../../progress/index.js';
import type { Diagnosis, Engine } from '../../types/diagnosis.js';
import { explainKill, type PodEvent } from '../monitor/explain-kill.js';
import { createStartMonitor, type MonitorOutput, type StartMonitor } from '../monitor/start-monitor.js';
import type { ExitStatus, StallNotice, StartFailure } from '../monitor/types.js';
import { probeHealth } from '../probe-health.js';
import { measureDownloads } from '../watch-download.js';
import { parseSystemdMessage } from '../../sources/journal/systemd-messages.js';
import { messageLines, rawLines } from './record-lines.js';
import { trackStarts, type InvocationSummary, type ServiceRecord } from './track-starts.js';

export interface WatchOptions {
  engine?: Engine | null;
  healthUrl?: URL | null;
  healthIntervalMs?: number;
  /** Fails a start that is not ready this long after it began. */
  timeoutMs?: number | null;
  /** A phase is stalled after this long without progress (default: the engine's bound for it). */
  stallAfterMs?: number | null;
  /** Fails a start in which nothing advanced this long. */
  stallTimeoutMs?: number | null;
  /** How long a start that logged a fatal error may go on before it counts as hung. */
  fatalGraceMs?: number;
  /** After the engine's death line, how long the rest of its traceback may take (default 1 s). */
  deathGraceMs?: number;
  /** The model's Hugging Face download folder (`.../blobs`), whose growing files are progress. */
  downloadFolder?: string | null;
  createDiagnosisSession: () => DiagnosisSession;
  /** What was read of a start, as the log target words it, for the report's `read:` line. */
  describeRead?: (invocation: InvocationSummary) => string;
  onEvent?: (event: WatchEvent) => void;
  /**
   * Keep following after a verdict (`watch --follow`): each start is reported (started, ready, failure,
   * stopped) and the session settles only on `finish`.
   */
  continuous?: boolean;
  /** Called when the backlog is read: from then on each line is reported as it comes. */
  onLive?: () => void;
}

export type WatchEvent =
  | { type: 'note'; text: string }
  | { type: 'progress'; state: ProgressState; elapsedMs: number }
  | { type: 'stalled'; stall: StallNotice }
  | { type: 'started'; invocation: InvocationSummary }
  | { type: 'ready'; elapsedMs: number; invocation: InvocationSummary }
  /** A start ended without a failure: a stop that was asked for, or a clean exit (continuous only). */
  | { type: 'stopped'; invocation: InvocationSummary; requested: boolean }
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

/** How the runtime saw the end of a start, beyond its words: for the killer of a SIGKILL. */
export interface EndEvidence {
  containerReason?: string | null;
  podEvents?: readonly PodEvent[] | null;
}

const TICK_MS = 500;
const DOWNLOAD_POLL_MS = 1000;
/** systemd writes its result line just after "Main process exited": wait this long for it. */
const RESULT_WAIT_MS = 1000;

/**
 * `watch`'s driver, whatever the log comes from: splits the records into starts (the invocation tracker),
 * feeds each start's monitor its lines, the runtime's verdict, the probes and the clock, and turns the
 * monitor's verdicts into watch events.
 */
export class WatchSession {
  readonly tracker;
  private live = false;
  private settle: ((outcome: WatchOutcome) => void) | null = null;
  readonly outcome: Promise<WatchOutcome>;
  private readonly timers: NodeJS.Timeout[] = [];
  private healthBusy = false;
  private restarts = 0;
  private monitor: StartMonitor | null = null;
  private owner: InvocationSummary | null = null;
  /** A SIGKILL seen in "Main process exited", held until systemd's result line says who sent it. */
  private pendingExit: { atMs: number; held: number } | null = null;
  /** What was already said of the current start (continuous mode reports each start once per verdict). */
  private told = { ready: false, failed: false, ended: false };

  constructor(private readonly options: WatchOptions) {
    this.tracker = trackStarts({
      engine: options.engine ?? null,
      readyFromLog: options.healthUrl === undefined || options.healthUrl === null,
      // The tracker only splits the starts and keeps systemd's verdicts: each start's monitor diagnoses it.
      createDiagnosisSession: splitOnlySession,
    });
    this.outcome = new Promise((resolve) => {
      this.settle = resolve;
    });
  }

  private emit(event: WatchEvent): void {
    this.options.onEvent?.(event);
  }

  private startMonitor(invocation: InvocationSummary): StartMonitor {
    this.owner = invocation;
    this.pendingExit = null;
    this.told = { ready: false, failed: false, ended: false };
    if (this.live && this.options.continuous === true) this.emit({ type: 'started', invocation });
    this.monitor = createStartMonitor({
      session: this.options.createDiagnosisSession(),
      engine: this.options.engine ?? null,
      probing: this.options.healthUrl !== undefined && this.options.healthUrl !== null,
      timeoutMs: this.options.timeoutMs,
      stallAfterMs: this.options.stallAfterMs,
      stallTimeoutMs: this.options.stallTimeoutMs,
      fatalGraceMs: this.options.fatalGraceMs,
      deathGraceMs: this.options.deathGraceMs,
    });
    return this.monitor;
  }

  /** Feeds one record. Before `goLive`, a backlog: state is kept, nothing is reported yet. */
  push(record: ServiceRecord): void {
    if (this.settle === null) return;
    const before = this.tracker.current();
    this.tracker.push(record);
    const current = this.tracker.current();
    if (current === null) return;
    if (current !== before && this.pendingExit !== null) this.endPending();
    if (this.settle === null) return;
    const monitor =
      current === this.owner && this.monitor !== null ? this.monitor : this.startMonitor(current);
    const atMs = record.atMs - current.startedAtMs;
    const raw = rawLines(record.text);
    if (record.systemd) {
      this.feed(monitor.push({ type: 'line', text: record.message, atMs, raw }));
      this.onSystemd(record, current, atMs);
      return;
    }
    const messages = messageLines(record.message);
    messages.forEach((text, index) => {
      const own = index === messages.length - 1 ? raw.slice(index) : raw.slice(index, index + 1);
      this.feed(monitor.push({ type: 'line', text, atMs, raw: own }));
    });
  }

  /** systemd's verdict on the start, given to its monitor; a SIGKILL waits briefly for the result line. */
  private onSystemd(record: ServiceRecord, invocation: InvocationSummary, atMs: number): void {
    const event = parseSystemdMessage(record.message);
    if (this.pendingExit !== null && event !== null) {
      this.endWith(invocation, atMs, resultOf(event));
      return;
    }
    if (invocation.status !== 'failed' && invocation.status !== 'stopped') return;
    if (this.monitor?.state().ended === true) return;
    const exit = parseSystemdExit(invocation.exit);
    if (exit?.signal === 'SIGKILL' && event?.kind === 'main-exited') {
      this.pendingExit = { atMs, held: 0 };
      return;
    }
    this.endWith(invocation, atMs, event === null ? null : resultOf(event));
  }

  private endPending(): void {
    const owner = this.owner;
    if (owner === null || this.pendingExit === null) return;
    this.endWith(owner, this.pendingExit.atMs, null);
  }

  private endWith(
    invocation: InvocationSummary,
    atMs: number,
    systemdResult: string | null,
    evidence: EndEvidence = {},
  ): void {
    this.pendingExit = null;
    const monitor = this.monitor;
    if (monitor === null || monitor.state().ended) return;
    const exit = parseSystemdExit(invocation.exit);
    // A container's 137 is the runtime's way of saying SIGKILL.
    const killed = exit?.signal === 'SIGKILL' || exit?.code === 137;
    const killer =
      killed || systemdResult !== null || evidence.containerReason || evidence.podEvents
        ? explainKill({
            signal: exit?.signal ?? null,
            systemdResult,
            containerReason: evidence.containerReason,
            podEvents: evidence.podEvents,
          })
        : null;
    this.feed(
      monitor.push({
        type: 'exit',
        atMs,
        exit,
        endedBy: invocation.exit === null ? undefined : `ended: ${invocation.exit}`,
        failed: invocation.status === 'failed',
        requested: invocation.status === 'stopped',
        killer,
      }),
    );
    if (this.live) this.decide();
  }

  private feed(outputs: MonitorOutput[]): void {
    const invocation = this.owner;
    if (invocation === null) return;
    for (const output of outputs) {
      if (!this.live) continue;
      switch (output.type) {
        case 'progress':
          this.emit({ type: 'progress', state: output.state, elapsedMs: output.elapsedMs });
          break;
        case 'stalled':
          this.emit({ type: 'stalled', stall: output.stall });
          break;
        case 'fatal-while-serving':
          this.emit({
            type: 'note',
            text: 'a fatal error appeared while the server is serving; it still answers',
          });
          break;
        default:
          break;
      }
    }
    if (
      this.live &&
      outputs.some(
        (output) => output.type === 'ready' || output.type === 'failed' || output.type === 'exited',
      )
    )
      this.decide();
  }

  /** The backlog is read: decide on what it showed, then decide on each new record as it comes. */
  goLive(follow: boolean): void {
    this.live = true;
    if (this.options.continuous === true && this.owner !== null)
      this.emit({ type: 'started', invocation: this.owner });
    this.decide();
    const state = this.monitor?.state();
    if (state !== undefined && this.settle !== null && !state.ended) {
      this.emit({ type: 'progress', state: state.progress, elapsedMs: this.elapsed() });
    }
    this.options.onLive?.();
    if (this.settle === null || !follow) return;
    if (this.options.healthUrl) this.pollHealth(this.options.healthUrl);
    const folder = this.options.downloadFolder;
    if (folder != null) this.pollDownloads(folder);
    this.timers.push(setInterval(() => this.tick(), TICK_MS));
  }

  /** Failed starts the runtime counted (docker RestartCount, kubectl restartCount, plus this one). */
  setRestarts(failedStarts: number): void {
    this.restarts = Math.max(this.restarts, failedStarts);
  }

  /** An outside verdict (docker inspect, kubectl): the current start ended. */
  end(exitText: string, failed: boolean, atMs: number, evidence: EndEvidence = {}): void {
    this.tracker.end(exitText, failed, atMs);
    const current = this.tracker.current();
    if (current === null) return;
    if (current !== this.owner || this.monitor === null) this.startMonitor(current);
    const reason = /\(OOM ?[Kk]illed\)/.test(exitText) ? 'OOMKilled' : null;
    this.endWith(current, atMs - current.startedAtMs, null, {
      containerReason: reason,
      ...evidence,
    });
  }

  /** Where following stops without a verdict (--no-follow, the source ended): what the journal showed. */
  finish(): void {
    if (this.pendingExit !== null) this.endPending();
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

  /** The current start's diagnosis so far, an open traceback closed (monitor's peekSettled). */
  peekCurrent(): Diagnosis | null {
    return this.monitor?.peekSettled() ?? null;
  }

  /** The current start's monitor state, for a driver that splits starts itself (a plain log file). */
  currentState(): ReturnType<StartMonitor['state']> | null {
    return this.monitor?.state() ?? null;
  }

  private elapsed(): number {
    return this.owner === null ? 0 : Date.now() - this.owner.startedAtMs;
  }

  private decide(): void {
    const invocation = this.owner;
    const state = this.monitor?.state();
    if (invocation === null || state === undefined || this.settle === null) return;
    if (this.options.continuous === true) {
      this.decideEach(invocation, state);
      return;
    }
    if (state.verdict === 'ready') {
      this.emit({ type: 'ready', elapsedMs: state.progress.readyAtMs ?? 0, invocation });
      this.resolve({ kind: 'ready', invocation });
    } else if (state.failure !== null && (state.ended || state.failure.reason !== 'exit')) {
      this.fail(invocation, this.concluded(state));
    }
  }

  /** Continuous mode: each verdict of each start said once, and the session goes on. */
  private decideEach(invocation: InvocationSummary, state: ReturnType<StartMonitor['state']>): void {
    if (!this.told.ready && state.progress.readyAtMs !== null && state.failure?.ready !== false) {
      this.told.ready = true;
      this.emit({ type: 'ready', elapsedMs: state.progress.readyAtMs, invocation });
    }
    if (!this.told.failed && state.failure !== null && (state.ended || state.failure.reason !== 'exit')) {
      this.told.failed = true;
      this.fail(invocation, this.concluded(state));
    }
    if (!this.told.ended && !this.told.failed && state.ended && state.verdict === 'exited') {
      this.told.ended = true;
      this.emit({ type: 'stopped', invocation, requested: state.requested });
    }
  }

  /**
   * The failure to report: after the end, over every line of the start; before it (a dead engine, a hang:
   * the watch leaves the server running), over the lines so far, an open traceback closed.
   */
  private concluded(state: ReturnType<StartMonitor['state']>): StartFailure {
    const failure = state.failure as StartFailure;
    return state.ended ? failure : (this.monitor?.conclude() ?? failure);
  }

  private fail(invocation: InvocationSummary, reported: StartFailure): void {
    const failedStarts = Math.max(
      this.tracker.failedStarts(),
      this.restarts,
      reported.reason === 'exit' ? 1 : 0,
    );
    const restartLoop = failedStarts >= 2;
    // The header counts starts across the journal; the diagnosis of this start's lines alone must agree.
    const service = reported.diagnosis.service;
    const diagnosis: Diagnosis =
      service === null
        ? reported.diagnosis
        : {
            ...reported.diagnosis,
            service: {
              ...service,
              starts: Math.max(service.starts, invocation.index, failedStarts),
              failedStarts,
              restartLoop,
            },
          };
    const source = this.options.describeRead?.(invocation);
    const failure = {
      ...reported,
      diagnosis: source === undefined ? diagnosis : { ...diagnosis, input: { ...diagnosis.input, source } },
    };
    this.emit({ type: 'failure', failure, invocation, failedStarts, restartLoop });
    if (this.options.continuous !== true) this.resolve({ kind: 'failed', failure, invocation, failedStarts });
  }

  private tick(): void {
    if (this.settle === null || this.monitor === null) return;
    if (this.pendingExit !== null) {
      this.pendingExit.held += TICK_MS;
      if (this.pendingExit.held >= RESULT_WAIT_MS) this.endPending();
      return;
    }
    this.feed(this.monitor.push({ type: 'tick', atMs: this.elapsed() }));
  }

  private pollDownloads(folder: string): void {
    let busy = false;
    const timer = setInterval(() => {
      const monitor = this.monitor;
      if (busy || this.settle === null || monitor === null) return;
      busy = true;
      void measureDownloads(folder).then((bytes) => {
        busy = false;
        if (bytes > 0 && this.settle !== null && this.monitor === monitor) {
          this.feed(monitor.push({ type: 'download', bytes, atMs: this.elapsed() }));
        }
      });
    }, DOWNLOAD_POLL_MS);
    this.timers.push(timer);
  }

  private pollHealth(url: URL): void {
    const interval = this.options.healthIntervalMs ?? 2000;
    const timer = setInterval(() => {
      const monitor = this.monitor;
      if (this.healthBusy || this.settle === null || monitor === null || !monitor.state().wantsProbe) return;
      this.healthBusy = true;
      void probeHealth(url, Math.max(500, Math.min(interval, 5000))).then((ok) => {
        this.healthBusy = false;
        if (this.settle === null || this.monitor !== monitor) return;
        this.feed(monitor.push({ type: 'probe', ok, atMs: this.elapsed() }));
      });
    }, interval);
    this.timers.push(timer);
  }
}

/** systemd's result in words the kill explanation knows: `oom-kill`, `timeout`, `signal`. */
function resultOf(event: NonNullable<ReturnType<typeof parseSystemdMessage>>): string | null {
  if (event.kind === 'failed') return event.result;
  if (event.kind === 'oom-killed') return 'oom-kill';
  if (event.kind === 'start-timeout') return 'timeout';
  return null;
}

/** A diagnosis session that reads nothing: the invocation tracker's own, since each monitor diagnoses. */
function splitOnlySession(): DiagnosisSession {
  const nothing = (): never => {
    throw new Error('the watch reads each start’s diagnosis from its monitor');
  };
  return {
    push: () => undefined,
    pushFrom: () => 0,
    pushLine: () => undefined,
    peek: nothing,
    closePending: () => undefined,
    askStop: () => undefined,
    end: () => null as unknown as Diagnosis,
  };
}

/** systemd's `exited 1/FAILURE`, `killed 9/KILL`, `dumped 11/SEGV` as an exit status. */
export function parseSystemdExit(text: string | null): ExitStatus | null {
  const match = /^(exited|killed|dumped) (\d+)(?:\/(\w+))?/.exec(text ?? '');
  if (match === null) return null;
  if (match[1] === 'exited') return { code: Number(match[2]), signal: null };
  return { code: null, signal: `SIG${match[3] ?? match[2]}` as NodeJS.Signals };
}
