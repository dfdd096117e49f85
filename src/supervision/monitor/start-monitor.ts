import type { DiagnosisSession } from '../../diagnosis/api.js';
import {
  ENGINE_PROGRESS,
  createProgressTracker,
  estimateRemainingMs,
  recordStart,
  type EngineProgressSpec,
  type ProgressState,
  type StartRecord,
} from '../../progress/index.js';
import type { Diagnosis, Engine } from '../../types/diagnosis.js';
import type { KillFinding } from './explain-kill.js';
import { stallBoundMs } from './stall-bounds.js';
import type { ExitStatus, FailureReason, StallNotice, StartFailure } from './types.js';

/** What the drivers see, as data: every time is milliseconds since the start began. */
export type MonitorEvent =
  /** One line of output; `raw`, where given, is what the diagnosis reads of it (the journal's own lines). */
  | { type: 'line'; text: string; atMs: number; raw?: readonly string[] }
  /** Bytes in the model's download files (the Hugging Face cache's `blobs/*.incomplete`). */
  | { type: 'download'; bytes: number; atMs: number }
  /** One round of the readiness probes (the health URL and, where the engine has one, its model list). */
  | { type: 'probe'; ok: boolean; atMs: number }
  | { type: 'tick'; atMs: number }
  | {
      type: 'exit';
      atMs: number;
      exit: ExitStatus | null;
      /** How it ended in the words of whoever saw it (systemd, docker, kubectl). */
      endedBy?: string;
      /** The runtime called the end a failure (docker, kubectl), whatever the status. */
      failed?: boolean;
      /** The user (or the runtime) asked it to stop: its exit is no crash. */
      requested?: boolean;
      killer?: KillFinding | null;
      killNote?: string;
      /** performance.now() when the exit was seen, to measure the report's delay. */
      seenAt?: number;
    };

export type Verdict = 'loading' | 'stalled' | 'ready' | 'failed' | 'exited';

/** What changed with an event; the drivers act on these (show, stop the server, record the start). */
export type MonitorOutput =
  | { type: 'progress'; state: ProgressState; elapsedMs: number }
  | { type: 'stalled'; stall: StallNotice }
  | { type: 'resumed'; afterMs: number }
  | { type: 'ready'; elapsedMs: number; via: 'probe' | 'log'; record: StartRecord | null }
  /** The start failed; the server may still run (timeout, hang, dead engine): the driver stops it. */
  | { type: 'failed'; failure: StartFailure }
  /** A fatal error appeared after ready while the server goes on answering. */
  | { type: 'fatal-while-serving'; diagnosis: Diagnosis; elapsedMs: number }
  | { type: 'exited'; exit: ExitStatus | null; requested: boolean };

export interface MonitorState {
  verdict: Verdict;
  progress: ProgressState;
  /** The time of the latest event. */
  nowMs: number;
  /** Milliseconds since anything advanced the start (a phase, a fact, downloaded bytes). */
  quietMs: number;
  etaMs: number | null;
  stall: StallNotice | null;
  failure: StartFailure | null;
  lastLine: string | null;
  /** The drivers should run the probes now (before ready, or to judge a fatal error after it). */
  wantsProbe: boolean;
  /** The server's end was seen. */
  ended: boolean;
  /** It ended because it was asked to (an interrupt, a stop). */
  requested: boolean;
  /** The diagnosis of all its output, once it ended. */
  diagnosis: Diagnosis | null;
}

export interface StartMonitorOptions {
  session: DiagnosisSession;
  engine?: Engine | null;
  command?: readonly string[];
  /** Ready on the probes (true) or on the log's own ready line (false). */
  probing?: boolean;
  history?: readonly StartRecord[];
  startedAt?: Date;
  timeoutMs?: number | null;
  /** A phase is stalled after this long without progress, whatever the history says. */
  stallAfterMs?: number | null;
  /** A start in which nothing advanced for this long fails (without it a stall is only a warning). */
  stallTimeoutMs?: number | null;
  /** How long a server that printed a fatal error may take to exit before it counts as hung. */
  fatalGraceMs?: number;
  /** After the engine's death line, how long the rest of its traceback may take to arrive. */
  deathGraceMs?: number;
  specs?: readonly EngineProgressSpec[];
}

export interface StartMonitor {
  push(event: MonitorEvent): MonitorOutput[];
  state(): MonitorState;
  /**
   * The diagnosis of its lines so far, an open traceback closed as silence closes it: for a driver that
   * sees no exit (a log file) and must judge a start that went quiet.
   */
  peekSettled(): Diagnosis;
  /**
   * The failure as it stands, for a driver that reports it before the server ends (it leaves the server
   * running): diagnosed now as `vigil diagnose` reads the lines so far, and no later line is read into it.
   * A failure decided on silence and not concluded is diagnosed at the exit, over every line the server
   * printed. Either way the report is what `vigil diagnose` says of the same lines, however they were
   * spaced in time.
   */
  conclude(): StartFailure | null;
  /** The driver is stopping the server now (its own verdict, or a signal passed on): the session is told. */
  noteStop(): void;
}

/** Lines that may start a fatal error; only these make the monitor ask the diagnosis for a verdict. */
const FATAL_HINT =
  /Traceback \(most recent call last\)|Error|error:|FAILED|[Ff]atal|FATAL|panic|terminate called|Killed|CUDA error|Segmentation fault|core dumped|ShardCannotStart/;
const PEEK_DEBOUNCE_MS = 200;
const TAIL_LINES = 30;
/** A dead engine's lines may go on past the grace (the rest of a traceback, its API process's); not forever. */
const DEATH_WAIT_GRACES = 3;

/**
 * One start, followed from events alone: its phases and ETA, whether it is loading, stalled, ready, failed
 * or over, and the diagnosis of its output. Pure: no clock, no process, no timer; `run` and `watch` feed it.
 */
export function createStartMonitor(options: StartMonitorOptions): StartMonitor {
  const specs = options.specs ?? ENGINE_PROGRESS;
  const probing = options.probing ?? false;
  const fatalGraceMs = options.fatalGraceMs ?? 15_000;
  const deathGraceMs = options.deathGraceMs ?? 1000;
  const history = options.history ?? [];
  const session = options.session;
  const tracker = createProgressTracker({
    engine: options.engine ?? null,
    command: options.command,
    readyFromLog: !probing,
    specs,
  });
  const tail: string[] = [];
  let now = 0;
  let verdict: Verdict = 'loading';
  let lastAdvanceAt = 0;
  let downloaded = 0;
  let stall: StallNotice | null = null;
  let failure: StartFailure | null = null;
  let lastLine: string | null = null;
  let peekAt: number | null = null;
  let fatal: { diagnosis: Diagnosis; atMs: number } | null = null;
  let fatalDecided = false;
  let death: { line: string; atMs: number } | null = null;
  let lastLineAt = 0;
  /** The failure's diagnosis was taken for a report before the end (conclude): the session is over. */
  let concluded = false;
  let lastProbe: { ok: boolean; atMs: number } | null = null;
  let ended = false;
  let requested = false;
  let finalDiagnosis: Diagnosis | null = null;

  const deathLines = (): readonly RegExp[] => {
    const engine = tracker.state().engine;
    return engine === null
      ? specs.flatMap((spec) => spec.death ?? [])
      : (specs.find((spec) => spec.engine === engine)?.death ?? []);
  };
  const ready = (): boolean => tracker.state().readyAtMs !== null;
  // A start judged on its silence (a log file shows no exit): the traceback still open is as complete as
  // it gets, and is closed as the silence closes it. No line is added: line numbers and counts stay the log's.
  const settled = (): Diagnosis => {
    session.closePending();
    return session.peek();
  };

  function snapshot(): ProgressState {
    const state = tracker.state();
    const facts = downloaded > 0 ? { ...state.facts, downloadedBytes: downloaded } : { ...state.facts };
    return { ...state, visits: [...state.visits], facts };
  }

  function advance(atMs: number, out: MonitorOutput[]): void {
    lastAdvanceAt = atMs;
    if (stall !== null) {
      out.push({ type: 'resumed', afterMs: atMs - (stall.phase?.atMs ?? 0) });
      stall = null;
      if (verdict === 'stalled') verdict = 'loading';
    }
    out.push({ type: 'progress', state: snapshot(), elapsedMs: atMs });
  }

  function becomeReady(via: 'probe' | 'log', atMs: number, out: MonitorOutput[]): void {
    if (via === 'probe') tracker.markReady(atMs);
    verdict = 'ready';
    stall = null;
    const record = options.startedAt === undefined ? null : recordStart(tracker.state(), options.startedAt);
    out.push({ type: 'ready', elapsedMs: atMs, via, record });
  }

  function fail(
    reason: FailureReason,
    diagnosis: Diagnosis,
    extra: Partial<StartFailure>,
    out: MonitorOutput[],
  ): void {
    const state = snapshot();
    failure = {
      reason,
      exit: null,
      ranMs: now,
      ready: ready(),
      phase: state.phase,
      phaseMs: reason === 'exit' ? null : now - (state.phase?.atMs ?? 0),
      progress: state,
      diagnosis,
      lastLines: [...tail],
      exitSeenAt: null,
      ...extra,
    };
    verdict = 'failed';
    out.push({ type: 'failed', failure });
  }

  function onLine(
    text: string,
    atMs: number,
    raw: readonly string[] | undefined,
    out: MonitorOutput[],
  ): void {
    // Once concluded the report was given on the lines before it: the session is over.
    if (!concluded) for (const line of raw ?? [text]) session.pushLine(line);
    tail.push(text);
    if (tail.length > TAIL_LINES) tail.shift();
    lastLine = text;
    lastLineAt = atMs;
    if (!ready() && tracker.push(text, atMs)) {
      advance(atMs, out);
      if (ready()) becomeReady('log', atMs, out);
    }
    if (death === null && deathLines().some((pattern) => pattern.test(text))) death = { line: text, atMs };
    if (fatal === null && peekAt === null && FATAL_HINT.test(text)) peekAt = atMs + PEEK_DEBOUNCE_MS;
  }

  /** What the passing of time decides: a verdict from the diagnosis, a death, a hang, a timeout, a stall. */
  function onTime(out: MonitorOutput[]): void {
    if (peekAt !== null && now >= peekAt && fatal === null) {
      peekAt = null;
      const diagnosis = session.peek();
      if (diagnosis.verdict === 'failure') fatal = { diagnosis, atMs: now };
    }
    // Dead once its lines have paused for the grace (a traceback printed in bursts comes whole), or at
    // the latest a few graces after the death line.
    const deathQuiet = death === null ? Infinity : Math.max(death.atMs, lastLineAt) + deathGraceMs;
    if (death !== null && now >= Math.min(deathQuiet, death.atMs + DEATH_WAIT_GRACES * deathGraceMs)) {
      fail('dead', session.peek(), { deathLine: death.line }, out);
      return;
    }
    if (fatal !== null && !fatalDecided && now >= fatal.atMs + fatalGraceMs) {
      if (!ready()) {
        fail('hang', session.peek(), {}, out);
        return;
      }
      // A serving server that logged a fatal error is only hung when its probes say so.
      const probed = lastProbe !== null && lastProbe.atMs >= fatal.atMs + fatalGraceMs;
      if (probing && !probed) return;
      fatalDecided = true;
      if (probing && lastProbe?.ok === false) {
        fail('hang', session.peek(), {}, out);
        return;
      }
      out.push({ type: 'fatal-while-serving', diagnosis: fatal.diagnosis, elapsedMs: now });
    }
    if (ready()) return;
    if (options.timeoutMs != null && now >= options.timeoutMs) {
      fail('timeout', session.peek(), {}, out);
      return;
    }
    const quietMs = now - lastAdvanceAt;
    const state = tracker.state();
    const bound =
      options.stallAfterMs != null
        ? { ms: options.stallAfterMs, from: 'flag' as const }
        : stallBoundMs(
            state.phase?.id ?? null,
            history,
            specs.find((spec) => spec.engine === state.engine) ?? null,
          );
    const notice = (): StallNotice => ({
      phase: state.phase,
      lastLine,
      quietMs,
      boundMs: bound.ms,
      boundFrom: bound.from,
    });
    if (options.stallTimeoutMs != null && quietMs >= options.stallTimeoutMs) {
      fail('stall', session.peek(), { stall: notice() }, out);
      return;
    }
    if (stall === null && quietMs >= bound.ms) {
      stall = notice();
      verdict = 'stalled';
      out.push({ type: 'stalled', stall });
    } else if (stall !== null) {
      stall = { ...stall, quietMs };
    }
  }

  function onExit(event: Extract<MonitorEvent, { type: 'exit' }>, out: MonitorOutput[]): void {
    ended = true;
    requested = event.requested === true;
    const diagnosis = concluded && failure !== null ? failure.diagnosis : session.end();
    finalDiagnosis = diagnosis;
    const exit = event.exit;
    const extra = {
      exit,
      endedBy: event.endedBy,
      killer: event.killer,
      killNote: event.killNote,
      exitSeenAt: event.seenAt ?? null,
    };
    if (failure !== null) {
      // Vigil stopped it (timeout, hang, dead engine). A report already given stands and the exit completes
      // it; else the diagnosis is taken again over all the server printed, as `vigil diagnose` reads it.
      failure = concluded
        ? { ...failure, exit, endedBy: failure.endedBy ?? event.endedBy }
        : { ...failure, exit, endedBy: failure.endedBy ?? event.endedBy, diagnosis, lastLines: [...tail] };
      return;
    }
    const clean = exit === null ? event.failed !== true : exit.code === 0 && event.failed !== true;
    if (requested || (clean && diagnosis.verdict !== 'failure')) {
      verdict = 'exited';
      out.push({ type: 'exited', exit, requested });
      return;
    }
    fail('exit', diagnosis, extra, out);
  }

  return {
    push(event) {
      const out: MonitorOutput[] = [];
      if (ended) return out;
      now = Math.max(now, event.atMs);
      const before = failure;
      switch (event.type) {
        case 'line':
          onLine(event.text, event.atMs, event.raw, out);
          break;
        case 'download':
          if (event.bytes > downloaded && !ready()) {
            downloaded = event.bytes;
            advance(event.atMs, out);
          }
          break;
        case 'probe':
          lastProbe = { ok: event.ok, atMs: event.atMs };
          if (event.ok && probing && !ready() && failure === null) becomeReady('probe', event.atMs, out);
          break;
        case 'tick':
          break;
        case 'exit':
          onExit(event, out);
          return out;
      }
      if (before === null && failure === null) onTime(out);
      return out;
    },
    peekSettled: () => {
      if (ended && finalDiagnosis !== null) return finalDiagnosis;
      return concluded && failure !== null ? failure.diagnosis : settled();
    },
    noteStop() {
      if (!concluded && !ended) session.askStop();
    },
    conclude() {
      if (failure === null || ended || concluded) return failure;
      concluded = true;
      failure = { ...failure, diagnosis: session.end(), lastLines: [...tail] };
      return failure;
    },
    state() {
      const progress = snapshot();
      return {
        verdict,
        progress,
        nowMs: now,
        quietMs: now - lastAdvanceAt,
        etaMs: estimateRemainingMs(progress, now, history),
        stall,
        failure,
        lastLine,
        wantsProbe: probing && !ended && failure === null && (!ready() || (fatal !== null && !fatalDecided)),
        ended,
        requested,
        diagnosis: finalDiagnosis,
      };
    },
  };
}
