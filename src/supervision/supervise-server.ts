import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import type { DiagnosisSession } from '../diagnosis/api.js';
import { SourceError } from '../errors.js';
import { ENGINE_PROGRESS, engineOfCommand, type ProgressState, type StartRecord } from '../progress/index.js';
import type { Diagnosis, Engine } from '../types/diagnosis.js';
import { startLifeline } from './lifeline.js';
import { describeUnexplainedKill, explainKill, type KillFinding } from './monitor/explain-kill.js';
import { createStartMonitor, type MonitorEvent, type MonitorOutput } from './monitor/start-monitor.js';
import type { ExitStatus, StallNotice, StartFailure } from './monitor/types.js';
import { modelListUrl, probeReady } from './probe-health.js';
import { readKernelKills } from '../sources/kernel-log.js';
import { OutputLineSplitter } from './split-output-lines.js';
import { measureDownloads } from './watch-download.js';

export type { ExitStatus, FailureReason, StallNotice, StartFailure } from './monitor/types.js';

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
  /** With a health URL, also ask the engine's model list (`/v1/models`) where it has one (default true). */
  askModelList?: boolean;
  healthIntervalMs?: number;
  /** Fails a start that is not ready this long after the spawn. */
  timeoutMs?: number | null;
  /** Earlier starts of the same command: the ETA and how long each phase may go without progress. */
  history?: readonly StartRecord[];
  /** A phase is stalled after this long without progress (default: from the history or the engine). */
  stallAfterMs?: number | null;
  /** Stops a start in which nothing advanced this long (default: a stall is only a warning). */
  stallTimeoutMs?: number | null;
  /** How long a server that printed a fatal error may take to exit before it counts as hung. */
  fatalGraceMs?: number;
  /** After the engine's death line, how long the rest of its traceback may take (default 1 s). */
  deathGraceMs?: number;
  /** Between SIGTERM and SIGKILL when the server is stopped. */
  killGraceMs?: number;
  /** Leave a server whose start failed running (vigil goes on passing its output until it ends). */
  keepRunning?: boolean;
  /** The model's Hugging Face download folder (`.../blobs`), whose growing files are progress. */
  downloadFolder?: string | null;
  /** Reads the kernel's kill messages since the start; null when unreadable (tests pass their own). */
  readKernelKills?: (since: Date) => Promise<readonly string[] | null>;
  /** Where the server's output goes as it arrives; null hides it (--quiet). */
  stdout?: OutputSink | null;
  stderr?: OutputSink | null;
  /** A copy of both streams (--log FILE). */
  log?: OutputSink | null;
  createDiagnosisSession: () => DiagnosisSession;
  onEvent?: (event: SupervisionEvent) => void;
}

export type SupervisionEvent =
  | { type: 'progress'; state: ProgressState; elapsedMs: number }
  | { type: 'stalled'; stall: StallNotice }
  | { type: 'resumed'; afterMs: number }
  | { type: 'ready'; elapsedMs: number; via: 'health' | 'log'; record: StartRecord | null }
  | { type: 'failure'; failure: StartFailure }
  /** A fatal error appeared after ready while the server goes on running. */
  | { type: 'fatal-while-serving'; diagnosis: Diagnosis; elapsedMs: number };

export type SupervisionOutcome =
  'exited' | 'crashed' | 'timeout' | 'hang' | 'dead' | 'stalled' | 'interrupted';

/** What `vigil run` saw, as plain data (a report can be written from it alone). */
export interface SupervisionResult {
  outcome: SupervisionOutcome;
  exit: ExitStatus;
  /** The status vigil run exits with (exit-codes.ts). */
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
  /**
   * Passes a signal (SIGINT, SIGTERM) to the server; its exit then counts as interrupted, not crashed. A
   * server still there after the kill grace gets SIGKILL; a second call sends it at once.
   */
  forward(signal: NodeJS.Signals): void;
}

const TICK_MS = 250;
const DOWNLOAD_POLL_MS = 1000;
const DRAIN_MS = 300;

/**
 * `vigil run`'s driver: starts the server (no shell, its own process group, tied to vigil's life), feeds
 * the start monitor its output, exit, probes, downloaded bytes and the clock, and acts on its verdicts.
 * Resolves once the program runs; a missing program rejects.
 */
export async function superviseServer(options: SuperviseOptions): Promise<SupervisionHandle> {
  const healthIntervalMs = options.healthIntervalMs ?? 2000;
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
  const lifeline = startLifeline(pid, killGraceMs);
  const startedAt = new Date();
  const t0 = performance.now();
  const elapsed = (): number => performance.now() - t0;
  const command = [options.command, ...options.args];
  const probing = options.healthUrl !== undefined && options.healthUrl !== null;

  const session = options.createDiagnosisSession();
  // The monitor ends the session at the exit; this is its answer should the exit never reach it.
  const monitorEnd = (): Diagnosis => session.peek();
  const monitor = createStartMonitor({
    session,
    engine: options.engine ?? null,
    command,
    probing,
    history: options.history,
    startedAt,
    timeoutMs: options.timeoutMs,
    stallAfterMs: options.stallAfterMs,
    stallTimeoutMs: options.stallTimeoutMs,
    fatalGraceMs: options.fatalGraceMs,
    deathGraceMs: options.deathGraceMs,
  });
  let exited = false;
  let interrupted = false;
  let stoppedByVigil = false;
  let acceptingLines = true;
  let killTimer: NodeJS.Timeout | null = null;
  let reported = false;

  function report(failure: StartFailure): void {
    if (reported) return;
    reported = true;
    emit({ type: 'failure', failure });
  }

  function feed(event: MonitorEvent): void {
    for (const output of monitor.push(event)) act(output);
  }

  function act(output: MonitorOutput): void {
    switch (output.type) {
      case 'progress':
      case 'stalled':
      case 'resumed':
      case 'fatal-while-serving':
        emit(output);
        break;
      case 'ready':
        emit({ ...output, via: output.via === 'probe' ? 'health' : 'log' });
        break;
      case 'failed':
        if (output.failure.reason === 'exit') break;
        // A server left running is reported now, on what it printed so far. One that vigil stops is
        // reported once it ended and its pipes are drained: the diagnosis then reads every line it printed,
        // as `vigil diagnose` of its log would, however the lines were spaced in time.
        if (options.keepRunning === true) report(monitor.conclude() ?? output.failure);
        else stop();
        break;
      case 'exited':
        break;
    }
  }

  function follow(stream: Readable, sink: OutputSink | null | undefined): Promise<void> {
    const splitter = new OutputLineSplitter();
    stream.on('data', (chunk: Buffer) => {
      sink?.write(chunk);
      options.log?.write(chunk);
      if (!acceptingLines) return;
      const atMs = elapsed();
      for (const text of splitter.push(chunk)) feed({ type: 'line', text, atMs });
    });
    return new Promise((resolve) => {
      stream.once('close', () => {
        if (acceptingLines) for (const text of splitter.end()) feed({ type: 'line', text, atMs: elapsed() });
        resolve();
      });
    });
  }
  const streamsClosed = Promise.all([
    follow(child.stdout, options.stdout),
    follow(child.stderr, options.stderr),
  ]);

  function stop(): void {
    if (exited) return;
    stoppedByVigil = true;
    monitor.noteStop();
    child.kill('SIGTERM');
    escalate();
  }

  /** SIGKILL for the whole group once the grace is over: a server that ignores SIGTERM still ends. */
  function escalate(): void {
    killTimer ??= setTimeout(() => signalGroup('SIGKILL'), killGraceMs);
  }

  function signalGroup(signal: NodeJS.Signals): void {
    try {
      process.kill(-pid, signal);
    } catch {
      // ESRCH: the group is already gone.
    }
  }

  const ticker = setInterval(() => feed({ type: 'tick', atMs: elapsed() }), TICK_MS);
  let downloadBusy = false;
  const folder = options.downloadFolder ?? null;
  const downloads =
    folder === null
      ? null
      : setInterval(() => {
          if (downloadBusy || exited) return;
          downloadBusy = true;
          void measureDownloads(folder).then((bytes) => {
            downloadBusy = false;
            if (!exited && bytes > 0) feed({ type: 'download', bytes, atMs: elapsed() });
          });
        }, DOWNLOAD_POLL_MS);

  const engine = options.engine ?? engineOfCommand(command);
  const listPath = ENGINE_PROGRESS.find((spec) => spec.engine === engine)?.modelList;
  const modelList =
    probing && options.askModelList !== false && listPath !== undefined && options.healthUrl
      ? modelListUrl(options.healthUrl, listPath)
      : null;
  let probeTimer: NodeJS.Timeout | null = null;
  async function pollReady(url: URL): Promise<void> {
    if (exited) return;
    if (monitor.state().wantsProbe) {
      const ok = await probeReady(url, modelList, Math.max(500, Math.min(healthIntervalMs, 5000)));
      if (exited) return;
      feed({ type: 'probe', ok, atMs: elapsed() });
    }
    probeTimer = setTimeout(() => void pollReady(url), healthIntervalMs);
  }
  if (options.healthUrl) void pollReady(options.healthUrl);

  async function findKiller(exit: ExitStatus): Promise<{ killer: KillFinding | null; killNote?: string }> {
    if (exit.signal !== 'SIGKILL' || stoppedByVigil || interrupted) return { killer: null };
    const read = options.readKernelKills ?? ((since: Date) => readKernelKills(options.env ?? {}, since));
    const kernelLines = await read(startedAt).catch(() => null);
    const evidence = { signal: exit.signal, pid, kernelLines };
    const killer = explainKill(evidence);
    return killer === null ? { killer, killNote: describeUnexplainedKill(evidence) } : { killer };
  }

  const done = new Promise<SupervisionResult>((resolve) => {
    child.once('exit', (code, signal) => {
      const exitSeenAt = performance.now();
      exited = true;
      for (const timer of [ticker, downloads]) if (timer !== null) clearInterval(timer);
      for (const timer of [killTimer, probeTimer]) if (timer !== null) clearTimeout(timer);
      const ranMs = elapsed();
      const exit = { code, signal };
      // The last chunks (the traceback) may still sit in the pipes; workers that outlive the main process
      // can hold them open, so wait for them only briefly.
      void Promise.race([streamsClosed, delay(DRAIN_MS)])
        .then(() => findKiller(exit))
        .then((kill) => {
          acceptingLines = false;
          // Leftover workers of a dead server keep GPU memory: end the group, as systemd would.
          signalGroup('SIGTERM');
          lifeline.release();
          feed({
            type: 'exit',
            atMs: ranMs,
            exit,
            requested: interrupted,
            seenAt: exitSeenAt,
            ...kill,
          });
          const state = monitor.state();
          const failure = state.failure;
          if (failure !== null) report(failure);
          child.stdout.destroy();
          child.stderr.destroy();
          const outcome = outcomeOf(failure, interrupted);
          resolve({
            outcome,
            exit,
            exitCode: exitCodeFor(outcome, exit),
            ready: state.progress.readyAtMs !== null,
            readyAfterMs: state.progress.readyAtMs,
            ranMs,
            progress: state.progress,
            diagnosis: state.diagnosis ?? failure?.diagnosis ?? monitorEnd(),
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
      if (interrupted || signal === 'SIGKILL') {
        signalGroup('SIGKILL');
        return;
      }
      interrupted = true;
      monitor.noteStop();
      child.kill(signal);
      escalate();
    },
  };
}

function outcomeOf(failure: StartFailure | null, interrupted: boolean): SupervisionOutcome {
  if (failure === null) return interrupted ? 'interrupted' : 'exited';
  switch (failure.reason) {
    case 'exit':
      return 'crashed';
    case 'stall':
      return 'stalled';
    default:
      return failure.reason;
  }
}

/**
 * vigil run's exit status, for a container runtime or systemd to act on: the server's own status, 128+N
 * after signal N, 124 when vigil stopped a start that was not ready in time or stalled, 1 for another
 * failed start without a status of its own (a hang, a dead engine, a clean exit before ready).
 */
export function exitCodeFor(outcome: SupervisionOutcome, exit: ExitStatus): number {
  if (outcome === 'timeout' || outcome === 'stalled') return EXIT_TIMEOUT;
  if (outcome === 'hang' || outcome === 'dead') return 1;
  if (exit.code !== null) return outcome === 'crashed' && exit.code === 0 ? 1 : exit.code;
  if (exit.signal !== null && (outcome === 'crashed' || outcome === 'interrupted')) {
    return 128 + (constants.signals[exit.signal] ?? 0);
  }
  return outcome === 'exited' ? 0 : 1;
}

export const EXIT_TIMEOUT = 124;
/** sysexits' EX_CONFIG: the pre-flight check refused the start; a restart would fail the same way. */
export const EXIT_PREFLIGHT = 78;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
