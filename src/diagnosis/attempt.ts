import type { ParsedLine } from '../parsing/parsed-line.js';
import { lastSegment } from '../parsing/traceback.js';
import type { Candidate } from './candidate.js';
import { saysItGoesOn } from './knowledge/failure-words.js';
import { isShutdownShaped } from './knowledge/shutdown.js';
import { saysNothing } from './bare-raise.js';

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
  /** The last line that said the server is ready (readiness again, a webserver connected after it). */
  lastReadyLine: number | null;
  /** A death marker after readiness: failures after it are a crash, not a failed request. */
  diedAfterReady: boolean;
  /** The first death marker after readiness. */
  deathLine: number | null;
  /** The attempt's count of ordinary lines after readiness when the death marker came. */
  deathChatter: number;
  /** Service-level failure (systemd saw the main process exit non-zero). */
  exitedWithFailure: boolean;
  /** The first sign that a stop was asked for (a signal, systemd's `Stopping`, a shutdown with no failure). */
  stopLine: number | null;
  /**
   * After the stop, where the server said its shutdown was complete: nothing of it runs any more, and what
   * it logged before this line was the unwinding.
   */
  shutDownLine: number | null;
  /** The attempt's count of ordinary lines when its shutdown said it was complete. */
  workAtShutDown: number;
  /** The attempt's count of ordinary lines at its stop. */
  workAtStop: number;
  /** The service was stopped or exited (systemd said so): the next start is a new one. */
  stopped: boolean;
  /** Lines after readiness that carried no failure: the server going on with its work. */
  chatter: number;
  /** A failure came after readiness: from there a probe answered (knowledge/probes.ts) is no work. */
  failedAfterReady: boolean;
  /** Lines since the start that carried no failure, before readiness too. */
  work: number;
  /** Lines the server itself wrote since the start (not systemd's): a systemd start after them is a new one. */
  engineLines: number;
  /** The start markers seen, by marker and process: the same one again is the next start. */
  startMarks: Set<string>;
  groups: Map<string, Group>;
  /** How many groups hold fatal candidates. */
  fatalGroups: number;
  /** Candidates in input order, one per group. */
  candidates: Candidate[];
  /** The last line before readiness or a stop that said the process was exiting (markers.ts EXIT_MARKERS). */
  exitMark: ExitMark | null;
  /**
   * A stop asked for before readiness, and how long the start had been silent when it came (from the lines'
   * own clocks): a start stopped after a stall was not one that went well.
   */
  stopBeforeReady: StopMark | null;
  /** A server's banner began it (markers.ts SERVER_BANNERS), not an offline run's. */
  server: boolean;
  /** An error after the last start's stop began it, not a start marker (session.ts runOf). */
  openedByError: boolean;
}

/** The line that asked a start to stop before it was ready, and the silence before it. */
export interface StopMark {
  line: ParsedLine;
  /** Milliseconds from the last line with a time before it; null where the lines carry no times. */
  silentMs: number | null;
  /** That last line, as the server wrote it. */
  lastBefore: string | null;
}

/** A process's exit words, with what the server had logged before them. */
export interface ExitMark {
  line: ParsedLine;
  /** The line's exit words, from where they begin. */
  message: string;
  /** The lines before it, for its last words. */
  context: string[];
  /** The attempt's count of ordinary lines when it came. */
  work: number;
}

export function createAttempt(index: number, firstLine: number): Attempt {
  return {
    index,
    firstLine,
    readyLine: null,
    lastReadyLine: null,
    diedAfterReady: false,
    deathLine: null,
    deathChatter: 0,
    exitedWithFailure: false,
    stopLine: null,
    shutDownLine: null,
    workAtShutDown: 0,
    workAtStop: 0,
    stopped: false,
    chatter: 0,
    failedAfterReady: false,
    work: 0,
    engineLines: 0,
    startMarks: new Set(),
    groups: new Map(),
    fatalGroups: 0,
    candidates: [],
    exitMark: null,
    stopBeforeReady: null,
    server: false,
    openedByError: false,
  };
}

/**
 * Lines before the death that can still explain it. A server that served for days logged many warnings
 * and failed requests; only the last stretch before it died speaks of the crash.
 */
const DEATH_WINDOW = 2000;

/**
 * Lines of ordinary work after a failure that show the server went on after it. A failure with fewer
 * after it ends the log (what follows is more failure, a shutdown, or nothing): the server died there,
 * whatever came before, even with no banner or death marker in view.
 */
const LIFE_AFTER_FAILURE = 30;

/** Where the failing stretch after readiness begins: a death marker or a failure that ends the log; else null. */
export function deathLineOf(attempt: Attempt): number | null {
  return deathOf(attempt)?.line ?? null;
}

export interface Death {
  line: number;
  /** The attempt's ordinary lines after readiness up to the death: the work it did before it died. */
  chatter: number;
}

/** The death after readiness: its line, and how much work the server had done when it came. */
export function deathOf(attempt: Attempt): Death | null {
  if (attempt.readyLine === null) return null;
  const stop = attempt.stopLine ?? Infinity;
  // A death the server said again it was ready after, then failed again, was recovered from (a container
  // restarted in place): the later failure is the death.
  const lastReady = attempt.lastReadyLine ?? 0;
  const failedAgain = attempt.candidates.some(
    (c) => c.fatal && c.phase !== 'request' && c.line.n > lastReady,
  );
  const readyAgain = failedAgain ? lastReady : 0;
  const marked =
    attempt.diedAfterReady &&
    attempt.deathLine !== null &&
    attempt.deathLine < stop &&
    attempt.deathLine > readyAgain
      ? { line: attempt.deathLine, chatter: attempt.deathChatter }
      : null;
  const ending = attempt.candidates.find(
    (c) =>
      c.afterReady &&
      c.fatal &&
      c.phase !== 'request' &&
      c.line.n < stop &&
      // A server that said again it was ready after it lived through it (Ollama's runner after a failed probe
      // of one GPU backend: `ggml_cuda_init: failed to initialize ROCm`, then `Server listening`).
      readyAgain < c.line.n &&
      (c.phase === 'start-up' || attempt.chatter - c.chatterBefore < LIFE_AFTER_FAILURE),
  );
  const ends = ending ? { line: ending.line.n, chatter: ending.chatterBefore } : null;
  if (marked === null || ends === null) return marked ?? ends;
  return marked.line <= ends.line ? marked : ends;
}

/** What an error the process lived through weighs less: as much as a wrapper's pointer elsewhere. */
export const LIVED_THROUGH = 100;

/** Past this much work between them, a line is as far from the death as it can be. */
const MAX_WORK_BEFORE_DEATH = 40;

/**
 * How much ordinary work the server did between a candidate and its death after readiness (`deathOf`; 0
 * for one at or after the death, or with no such death). A warning of start-up that readiness followed,
 * or one the server went on serving after, was survived: the more work after it, the less it explains
 * the death. `readyAgain`: the last line that said the server was ready.
 */
export function workBeforeDeath(
  death: Death | null,
  candidate: Candidate,
  readyAgain: number | null = null,
): number {
  if (death === null) return 0;
  // The start went on to readiness after it, or said again that it was ready: the process lived through it,
  // even where it came after a death (a restart's probe of a GPU backend it went on without).
  if ((readyAgain ?? 0) > candidate.line.n) return LIVED_THROUGH;
  if (candidate.line.n >= death.line) return 0;
  if (!candidate.afterReady) return LIVED_THROUGH;
  const work = Math.min(Math.max(death.chatter - candidate.chatterBefore, 0), MAX_WORK_BEFORE_DEATH);
  // A warning the server served on past as far as can be (`TORCH_CUDA_ARCH_LIST is not set` at a request's
  // kernel build) was lived through: it says less of the death than the death's own pointer elsewhere.
  return !candidate.fatal && work === MAX_WORK_BEFORE_DEATH ? LIVED_THROUGH : work;
}

/** `Failed to import from vllm._C with ...`: the module a logged import failure names. */
const IMPORTED = /\bimport (?:from )?([\w.]+)/i;

/**
 * Whether the death names what a logged import failure could not load (`'_OpNamespace' '_C' object has no
 * attribute 'rms_norm'` after `Failed to import from vllm._C`): the process went on without it, and died of it.
 */
function lacksImported(death: Candidate, logged: Candidate): boolean {
  const module = IMPORTED.exec(logged.message)?.[1];
  if (module === undefined) return false;
  const last = module.slice(module.lastIndexOf('.') + 1);
  return last.length >= 2 && death.message.split(/[^\w]+/).includes(last);
}

/** Ordinary lines after a logged error that show its process went on past it. */
const WENT_ON_AFTER_LOGGED = 3;

/** A warning says by its level that the process meant to go on: one ordinary line after it shows it did. */
const WENT_ON_AFTER_WARNING = 1;

/**
 * The traceback a process died with, when a logged error (a line, not a traceback: an optional
 * backend's failed probe, a library's complaint at import) came before it with the server's work
 * between: that error was lived through and explains the death no more than a survived warning.
 */
export function survivedBefore(candidates: readonly Candidate[]): (c: Candidate) => boolean {
  const death = candidates.findLast(
    (c) =>
      c.kind === 'exception' &&
      c.fatal &&
      !c.wrapper &&
      c.frames.length > 0 &&
      !isShutdownShaped(c.exception, c.message),
  );
  if (death === undefined) return survivedBeforeWrapper(candidates);
  return (c) =>
    c.line.n < death.line.n &&
    c.frames.length === 0 &&
    !c.crash &&
    !lacksImported(death, c) &&
    death.workBefore - c.workBefore >=
      (c.line.level === 'WARNING' ? WENT_ON_AFTER_WARNING : WENT_ON_AFTER_LOGGED);
}

/** Ordinary lines after a warning that show the start went on with it, whatever killed it later. */
const WENT_FAR_AFTER_WARNING = 40;

/**
 * Where the start died with only a wrapper's word (`Engine core initialization failed. See root cause
 * above. Failed core proc(s): {}`): a warning the start went far past (`Failed to import from vllm._C:
 * ImportError('libcuda.so.1 ...')` on a TPU host, then hundreds of lines of its compiling) did not end it,
 * unless what died names what the warning could not load.
 */
function survivedBeforeWrapper(candidates: readonly Candidate[]): (c: Candidate) => boolean {
  const death = candidates.findLast((c) => c.kind === 'exception' && c.fatal && c.wrapper);
  if (death === undefined) return () => false;
  return (c) =>
    c.line.n < death.line.n &&
    c.line.level === 'WARNING' &&
    !c.fatal &&
    c.frames.length === 0 &&
    !c.crash &&
    !lacksImported(death, c) &&
    death.workBefore - c.workBefore >= WENT_FAR_AFTER_WARNING;
}

/**
 * Candidates that count: none after a stop that was asked for (the unwinding); before readiness only when
 * the start never became ready or died after it; after readiness only crashes, or what came shortly
 * before the server died, requests' own failures only after that.
 */
export function eligibleCandidates(attempt: Attempt): Candidate[] {
  const stop = attempt.stopLine ?? Infinity;
  const death = deathLineOf(attempt);
  // A start that became ready went through whatever it logged before: that explains only a later death.
  const survived = attempt.readyLine !== null && death === null;
  return attempt.candidates.filter((c) => {
    if (c.line.n > stop) return false;
    if (c.crash) return true;
    if (!c.afterReady) return !survived;
    if (death === null) return false;
    if (c.line.n >= death) return true;
    return c.phase !== 'request' && (c.fatal || c.line.n >= death - DEATH_WINDOW);
  });
}

export function hasFatalEvidence(attempt: Attempt): boolean {
  return attempt.exitedWithFailure || eligibleCandidates(attempt).some((c) => c.fatal);
}

/**
 * A start whose only sign of failing is a warning it went on past (`Failed to import from vllm._C with
 * ImportError(...)`, then its version line) where the log ends: it says less than an earlier start's death.
 */
export function onlyWarnedPast(attempt: Attempt): boolean {
  if (attempt.exitedWithFailure) return false;
  const fatal = eligibleCandidates(attempt).filter((c) => c.fatal);
  return (
    fatal.length > 0 &&
    fatal.every((c) => c.line.level === 'WARNING' && attempt.work - c.workBefore >= WENT_ON_AFTER_WARNING)
  );
}

/** Ordinary lines after an error that show a start went on past it. */
export const WENT_ON = 10;

/** An error, not a warning or a hint at something merely unsupported: what a dying server logs. */
export function speaksOfFailure(c: Candidate): boolean {
  if (saysItGoesOn(c.message)) return false;
  if (c.fatal) return true;
  if (c.kind === 'error-line') return true;
  if (c.kind === 'hint') return c.line.level === 'ERROR' || c.line.level === 'CRITICAL';
  return c.strength >= 20;
}

/**
 * Whether the start's last error came just now, with no work after it (a request's own failure aside): a
 * shutdown no one asked for that follows it is that error's end, not an orderly stop (TGI's launcher:
 * `ERROR ... Shard 0 crashed`, then `Shutting down shards`).
 */
export function errorJustBefore(attempt: Attempt): boolean {
  const last = attempt.candidates.findLast((c) => speaksOfFailure(c) && c.phase !== 'request');
  return last !== undefined && attempt.work - last.workBefore < WENT_ON;
}

/**
 * A bare exception (`raise TimeoutError`) that the other one raises again, its class with words
 * (`TimeoutError: RPC call to execute_model timed out.`): the later one says what the first could not.
 */
export function saysLessThan(bare: Candidate, other: Candidate): boolean {
  if (bare.exception === null || other.exception === null) return false;
  if (translatesLookup(bare, other)) return true;
  if (!saysNothing(bare.message)) return false;
  return lastSegment(bare.exception) === lastSegment(other.exception) && !saysNothing(other.message);
}

/**
 * An attribute lookup that a `__getattr__` read from a dict (starlette's `State`, an `EasyDict`): the dict's
 * KeyError names only the key, the AttributeError raised while handling it names the object too.
 */
function translatesLookup(first: Candidate, then: Candidate): boolean {
  return (
    lastSegment(first.exception ?? '') === 'KeyError' &&
    lastSegment(then.exception ?? '') === 'AttributeError' &&
    first.frames.at(-1)?.function === '__getattr__'
  );
}
