import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import type { DiagnosisSession } from '../diagnosis/api.js';
import { SourceError } from '../errors.js';
import {
  createProgressTracker,
  recordStart,
  type PhaseVisit,
  type ProgressState,
  type StartRecord,
} from '../progress/index.js';
import type { Diagnosis, Engine } from '../types/diagnosis.js';
import { probeHealth } from './probe-health.js';
import { OutputLineSplitter } from './split-output-lines.js';

export interface OutputSink {
  write(chunk: Uint8Array | string): unknown;
}

export interface SuperviseOptions {
  command: string;
  args: readonly string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  engine?: Engine | null;
  /** Ready when this URL answers 2xx; without it, when the log prints the engine's ready line. */
  healthUrl?: URL | null;
  healthIntervalMs?: number;
  /** Fails a start that is not ready this long after the spawn. */
  timeoutMs?: number | null;
  /** How long a server that printed a fatal error may take to exit before it counts as hung. */
  fatalGraceMs?: number;
  /** Between SIGTERM and SIGKILL when vigil stops the server itself. */
  killGraceMs?: number;
  /** Where the server's output goes as it arrives; null hides it (--quiet). */
  stdout?: OutputSink | null;
  stderr?: OutputSink | null;
  /** A copy of both streams (--log FILE). */
  log?: OutputSink | null;
  createDiagnosisSession: () => DiagnosisSession;
  onEvent?: (event: SupervisionEvent) => void;
}

export type FailureReason = 'exit' | 'timeout' | 'hang';

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Everything a crash report says: why, when, in which phase, and the diagnosis of this run's output. */
export interface StartFailure {
  reason: FailureReason;
  /** How the server ended; null while it still runs (timeout, hang) at the time of the report. */
  exit: ExitStatus | null;
  /** How it ended in the words of whoever saw it, when no exit status says it (systemd's result). */
  endedBy?: string;
  ranMs: number;
  ready: boolean;
  phase: PhaseVisit | null;
  /** For a timeout or hang: how long the server has been in its last phase. */
  phaseMs: number | null;
  progress: ProgressState;
  diagnosis: Diagnosis;
  /** The last lines of output, for a report where the diagnosis found nothing. */
  lastLines: string[];
  /** performance.now() when the server's exit was seen (reason 'exit'), to measure the report's delay. */
  exitSeenAt: number | null;
}

export type SupervisionEvent =
  | { type: 'progress'; state: ProgressState; elapsedMs: number }
  | { type: 'ready'; elapsedMs: number; via: 'health' | 'log'; record: StartRecord | null }
  | { type: 'failure'; failure: StartFailure }
  /** A fatal error appeared after ready while the server goes on running. */
  | { type: 'fatal-while-serving'; diagnosis: Diagnosis; elapsedMs: number };

export type SupervisionOutcome = 'exited' | 'crashed' | 'timeout' | 'hang' | 'interrupted';

export interface SupervisionResult {
  outcome: SupervisionOutcome;
  exit: ExitStatus;
  /** The status vigil run exits with: the server's, 1 when it crashed without one, 128+N after signal N. */
  exitCode: number;
  ready: boolean;
  readyAfterMs: number | null;
  ranMs: number;
  progress: ProgressState;
  diagnosis: Diagnosis;
  failure: StartFailure | null;
}

export interface SupervisionHandle {
  pid: number;
  done: Promise<SupervisionResult>;
  /** Passes a signal (SIGINT, SIGTERM) to the server; its exit then counts as interrupted, not crashed. */
  forward(signal: NodeJS.Signals): void;
}

/** Lines that may start a fatal error; only these make the supervisor ask the diagnosis for a verdict. */
const FATAL_HINT =
  /Traceback \(most recent call last\)|Error|error:|FAILED|[Ff]atal|FATAL|panic|terminate called|Killed|CUDA error|Segmentation fault|core dumped|ShardCannotStart/;
const PEEK_DEBOUNCE_MS = 200;
const DRAIN_MS = 300;
const TAIL_LINES = 30;

/**
 * Starts the server (no shell, its own process group), passes its output through, follows its progress
 * and diagnoses its output as it arrives. Resolves once the program runs; a missing program rejects.
 */
export async function superviseServer(options: SuperviseOptions): Promise<SupervisionHandle> {
  const healthIntervalMs = options.healthIntervalMs ?? 2000;
  const fatalGraceMs = options.fatalGraceMs ?? 15_000;
  const killGraceMs = options.killGraceMs ?? 10_000;
  const emit = options.onEvent ?? ((): void => undefined);

  const child = spawn(options.command, [...options.args], {
    shell: false,
    // Its own process group: a terminal's Ctrl-C reaches vigil alone, which forwards it once.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: options.env ?? process.env,
    cwd: options.cwd,
  });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        new SourceError(
          error.code === 'ENOENT'
            ? `${options.command} was not found; give its path or put it on PATH`
            : `could not start ${options.command}: ${error.message}`,
          { cause: error },
        ),
      );
    });
  });
  child.on('error', () => undefined);
  const pid = child.pid ?? -1;
  const startedAt = new Date();
  const t0 = performance.now();
  const elapsed = (): number => performance.now() - t0;

  const tracker = createProgressTracker({
    engine: options.engine ?? null,
    command: [options.command, ...options.args],
    readyFromLog: options.healthUrl === undefined || options.healthUrl === null,
  });
  const session = options.createDiagnosisSession();
  // The last lines, in a ring, for a report whose diagnosis found nothing.
  const tail: string[] = [];
  let tailNext = 0;
  const lastLines = (): string[] =>
    tailNext <= TAIL_LINES
      ? tail.slice(0, tailNext)
      : [...tail.slice(tailNext % TAIL_LINES), ...tail.slice(0, tailNext % TAIL_LINES)];
  let exited = false;
  let ready = false;
  let interrupted = false;
  let stoppedFor: 'timeout' | 'hang' | null = null;
  let failure: StartFailure | null = null;
  let fatalDiagnosis: Diagnosis | null = null;
  let peekTimer: NodeJS.Timeout | null = null;
  let hangTimer: NodeJS.Timeout | null = null;
  let killTimer: NodeJS.Timeout | null = null;
  let healthTimer: NodeJS.Timeout | null = null;
  let acceptingLines = true;

  const timeoutTimer =
    options.timeoutMs === undefined || options.timeoutMs === null
      ? null
      : setTimeout(() => {
          if (ready || exited) return;
          reportStalled('timeout', session.peek());
        }, options.timeoutMs);

  function handleLine(line: string, atMs: number): void {
    session.pushLine(line);
    tail[tailNext % TAIL_LINES] = line;
    tailNext += 1;
    // Once ready, the phases are over: only the diagnosis goes on reading (a crash after ready).
    if (!ready && tracker.push(line, atMs)) {
      emit({ type: 'progress', state: snapshot(tracker.state()), elapsedMs: atMs });
      if (!ready && tracker.state().readyAtMs !== null) becomeReady('log', atMs);
    }
    if (fatalDiagnosis === null && peekTimer === null && FATAL_HINT.test(line)) {
      peekTimer = setTimeout(checkFatal, PEEK_DEBOUNCE_MS);
    }
  }

  function follow(stream: Readable, sink: OutputSink | null | undefined): Promise<void> {
    const splitter = new OutputLineSplitter();
    stream.on('data', (chunk: Buffer) => {
      sink?.write(chunk);
      options.log?.write(chunk);
      if (!acceptingLines) return;
      const atMs = elapsed();
      for (const line of splitter.push(chunk)) handleLine(line, atMs);
    });
    return new Promise((resolve) => {
      stream.once('close', () => {
        if (acceptingLines) for (const line of splitter.end()) handleLine(line, elapsed());
        resolve();
      });
    });
  }
  const streamsClosed = Promise.all([
    follow(child.stdout, options.stdout),
    follow(child.stderr, options.stderr),
  ]);

  function becomeReady(via: 'health' | 'log', atMs: number): void {
    ready = true;
    if (via === 'health') tracker.markReady(atMs);
    if (timeoutTimer !== null) clearTimeout(timeoutTimer);
    if (healthTimer !== null) clearTimeout(healthTimer);
    emit({ type: 'ready', elapsedMs: atMs, via, record: recordStart(tracker.state(), startedAt) });
  }

  function checkFatal(): void {
    peekTimer = null;
    if (exited || fatalDiagnosis !== null) return;
    const diagnosis = session.peek();
    if (diagnosis.verdict !== 'failure') return;
    fatalDiagnosis = diagnosis;
    hangTimer = setTimeout(() => void checkHang(), fatalGraceMs);
  }

  async function checkHang(): Promise<void> {
    if (exited || fatalDiagnosis === null) return;
    if (ready) {
      // A serving server that logged a fatal error is only hung when its health URL says so.
      const healthy = options.healthUrl ? await probeHealth(options.healthUrl, 5000) : true;
      if (exited) return;
      if (healthy) {
        emit({ type: 'fatal-while-serving', diagnosis: fatalDiagnosis, elapsedMs: elapsed() });
        return;
      }
    }
    reportStalled('hang', session.peek());
  }

  function reportStalled(reason: 'timeout' | 'hang', diagnosis: Diagnosis): void {
    if (stoppedFor !== null || exited) return;
    stoppedFor = reason;
    const state = tracker.state();
    const ranMs = elapsed();
    failure = {
      reason,
      exit: null,
      ranMs,
      ready,
      phase: state.phase,
      phaseMs: ranMs - (state.phase?.atMs ?? 0),
      progress: snapshot(state),
      diagnosis,
      lastLines: lastLines(),
      exitSeenAt: null,
    };
    emit({ type: 'failure', failure });
    stop();
  }

  function stop(): void {
    if (exited) return;
    child.kill('SIGTERM');
    killTimer = setTimeout(() => signalGroup('SIGKILL'), killGraceMs);
  }

  function signalGroup(signal: NodeJS.Signals): void {
    try {
      process.kill(-pid, signal);
    } catch {
      // ESRCH: the group is already gone.
    }
  }

  async function pollHealth(url: URL): Promise<void> {
    if (ready || exited) return;
    const healthy = await probeHealth(url, Math.max(500, Math.min(healthIntervalMs, 5000)));
    if (ready || exited) return;
    if (healthy) {
      becomeReady('health', elapsed());
      return;
    }
    healthTimer = setTimeout(() => void pollHealth(url), healthIntervalMs);
  }
  if (options.healthUrl) void pollHealth(options.healthUrl);

  const done = new Promise<SupervisionResult>((resolve) => {
    child.once('exit', (code, signal) => {
      const exitSeenAt = performance.now();
      exited = true;
      for (const timer of [timeoutTimer, peekTimer, hangTimer, killTimer, healthTimer]) {
        if (timer !== null) clearTimeout(timer);
      }
      const ranMs = elapsed();
      // The last chunks (the traceback) may still sit in the pipes; workers that outlive the main process
      // can hold them open, so wait for them only briefly.
      void Promise.race([streamsClosed, delay(DRAIN_MS)]).then(() => {
        acceptingLines = false;
        // Leftover workers of a dead server keep GPU memory: end the group, as systemd would.
        signalGroup('SIGTERM');
        const diagnosis = session.end();
        const exit = { code, signal };
        const state = tracker.state();
        let outcome: SupervisionOutcome;
        if (stoppedFor !== null) outcome = stoppedFor;
        else if (interrupted) outcome = 'interrupted';
        else if (code === 0 && diagnosis.verdict !== 'failure') outcome = 'exited';
        else outcome = 'crashed';
        if (outcome === 'crashed') {
          failure = {
            reason: 'exit',
            exit,
            ranMs,
            ready,
            phase: state.phase,
            phaseMs: null,
            progress: snapshot(state),
            diagnosis,
            lastLines: lastLines(),
            exitSeenAt,
          };
          emit({ type: 'failure', failure });
        } else if (failure !== null) {
          failure = { ...failure, exit };
        }
        child.stdout.destroy();
        child.stderr.destroy();
        resolve({
          outcome,
          exit,
          exitCode: exitCodeFor(outcome, exit),
          ready,
          readyAfterMs: state.readyAtMs,
          ranMs,
          progress: snapshot(state),
          diagnosis,
          failure,
        });
      });
    });
  });

  return {
    pid,
    done,
    forward(signal) {
      if (exited) return;
      interrupted = true;
      child.kill(signal);
    },
  };
}

function exitCodeFor(outcome: SupervisionOutcome, exit: ExitStatus): number {
  if (outcome === 'timeout' || outcome === 'hang') return 1;
  if (exit.code !== null) return outcome === 'crashed' && exit.code === 0 ? 1 : exit.code;
  if (outcome === 'interrupted' && exit.signal !== null) return 128 + (constants.signals[exit.signal] ?? 0);
  return outcome === 'exited' ? 0 : 1;
}

/** A copy that later lines do not change, for events and results. */
function snapshot(state: ProgressState): ProgressState {
  return { ...state, visits: [...state.visits], facts: { ...state.facts } };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
