import type { Signature } from '../signatures/define-signature.js';
import type {
  Diagnosis,
  Engine,
  FailureGroup,
  RootCause,
  ServiceSummary,
  SignatureMatch,
} from '../types/diagnosis.js';
import {
  deathOf,
  eligibleCandidates,
  hasFatalEvidence,
  onlyWarnedPast,
  LIVED_THROUGH,
  saysLessThan,
  speaksOfFailure,
  survivedBefore,
  WENT_ON,
  workBeforeDeath,
  type Attempt,
  type ExitMark,
  type Group,
} from './attempt.js';
import type { Candidate } from './candidate.js';
import { findUndetectedPlatform } from './undetected-platform.js';
import { findHubRequestFailure } from './hub-chain.js';
import { findStalledThenStopped } from './stalled-stop.js';
import { lineCandidate } from './line-candidate.js';
import { CUT_TRACEBACK } from './collect-candidates.js';
import { CRASH_SITE_CATEGORIES } from './classify/categories.js';
import { classifyCause } from './classify/classify-cause.js';
import { findCrashSite, findRaiseSite } from './find-sites.js';
import { TRACEBACK_START } from '../parsing/traceback.js';
import type { ParsedLine } from '../parsing/parsed-line.js';
import { parseLine } from '../parsing/parse-line.js';
import { FAILURE_WORDS, saysItGoesOn } from './knowledge/failure-words.js';
import { exitMarkIn, isSettingsDump } from './knowledge/markers.js';
import { isNoise } from './knowledge/noise.js';
import { cap, describeSignature, matchSignature } from './match-signature.js';
import { compareProcessNames } from './compare-process-names.js';
import { isWaitingError } from './knowledge/waiting.js';
import { isBareStop } from './knowledge/shutdown.js';
import { reportsClosedChannel, saysOnlyACode } from './knowledge/wrappers.js';
import { firstOfBurst, type Scored } from './first-of-burst.js';
import { findFailedRequests } from './failed-requests.js';

export interface DiagnosisInput {
  /** The log is over (not a peek while it grows): only then can a line be what ends it. */
  ended?: boolean;
  attempts: readonly Attempt[];
  signatures: readonly Signature[];
  service: ServiceSummary | null;
  noise: number;
  input: Diagnosis['input'];
  engineVotes: ReadonlyMap<Engine, number>;
  /** The last version each engine printed of itself. */
  engineVersions: ReadonlyMap<Engine, string>;
  processes: string[];
  /** The log's last lines, once it has ended (blank ones aside). */
  lastLines?: readonly ParsedLine[];
  /** The stack-frame lines the log ends with: the error above them is where it stopped. */
  framesAtEnd?: number;
}

const SIGNATURE_PULL = 60;
const WRAPPER_PENALTY = 100;
/** Below a cut traceback's strength (collect-candidates.ts, -200) even with a signature's pull. */
const WENT_PAST_HINT_PENALTY = 300;
const SETTINGS_PENALTY = 200;
/** A timeout or a lost connection after an earlier failure waited on it (knowledge/waiting.ts). */
const ECHO_PENALTY = 40;
/** Below a wrapper of the same strength: a closed channel only says a process at its other end went away. */
const CLOSED_CHANNEL_PENALTY = 5;
/** An error code alone weighs less than a library's error line that says what (22), more than a pointer. */
const CODE_ONLY_PENALTY = 40;
const MAX_EVIDENCE = 14;

/** Weighs the candidates of the failing start and writes the diagnosis. Pure. */
export function buildDiagnosis(input: DiagnosisInput): Diagnosis {
  const engine = pickEngine(input.engineVotes);
  const base: Diagnosis = {
    schemaVersion: 1,
    verdict: 'no-failure',
    rootCause: null,
    signature: null,
    general: null,
    groups: [],
    service: input.service,
    evidence: [],
    symptoms: [],
    engine,
    engineVersion: engine === null ? null : (input.engineVersions.get(engine) ?? null),
    processes: input.processes.sort(compareProcessNames),
    noiseSuppressed: input.noise,
    input: input.input,
    warnings: [],
  };
  const failing = findFailure(input);
  if (failing === null) return { ...base, health: healthOf(input.attempts.at(-1)) };
  const { attempt, candidates } = failing;
  // Found once for all candidates: finding it reads the attempt's candidates.
  const death = deathOf(attempt);
  const survived = survivedBefore(candidates);
  const failed = (c: Candidate): boolean => c.fatal && !c.wrapper && c.kind === 'exception' && !survived(c);
  // A start that only timed out: the first to give up says what was waited on; the later ones wait on it.
  const firstFailure =
    candidates.find((c) => failed(c) && !isWaitingError(c.exception, c.message)) ?? candidates.find(failed);
  const scored = candidates.map((candidate) => {
    const echo =
      firstFailure !== undefined &&
      firstFailure.line.n < candidate.line.n &&
      isWaitingError(candidate.exception, candidate.message) &&
      !saysLessThan(firstFailure, candidate);
    const lived = survived(candidate)
      ? LIVED_THROUGH
      : workBeforeDeath(death, candidate, attempt.lastReadyLine);
    return scoreCandidate(
      candidate,
      input.signatures,
      lived + (echo ? ECHO_PENALTY : 0),
      linesBefore(candidate, candidates),
    );
  });
  const best = pickBest(scored);
  const eligible = new Set(candidates);
  const groups = [...attempt.groups.values()].filter((g) => eligible.has(g.representative));
  const causes = groups.filter((g) => !g.representative.wrapper).map(describeGroup);
  const symptoms = groups.filter((g) => g.representative.wrapper).map(describeGroup);
  if (best === null) {
    return {
      ...base,
      verdict: 'failure',
      groups: causes,
      symptoms,
      warnings: ['the log shows a failed start but no error line'],
    };
  }
  // The error may only name what a failed import would have given: then the import is the cause.
  const named =
    findNamedImportFailure(best.candidate, candidates) ?? findUndetectedPlatform(best.candidate, candidates);
  // The hub's error says what the failed request meant: its signature still explains the request's failure.
  const request = named === null ? findHubRequestFailure(best.candidate, candidates) : null;
  // What is said of the cause is the cause's own: the failure that named it may match another signature.
  const chosen =
    named !== null
      ? { candidate: named, hit: matchSignature(named, input.signatures), score: best.score }
      : request !== null
        ? {
            candidate: request,
            hit: best.hit ?? matchSignature(request, input.signatures),
            score: best.score,
          }
        : errorBeforeCut(
            firstOfBurst(firstCopyOf(best, candidates, input.signatures), candidates, input.signatures),
          );
  const cause = chosen.candidate;
  const group = attempt.groups.get(cause.fingerprint);
  const rootCause = describeRootCause(firstCopyBlamed(chosen, candidates), group);
  return {
    ...base,
    verdict: 'failure',
    rootCause,
    signature: chosen.hit
      ? placeByWords(placeDeath(describeSignature(chosen.hit, engine), chosen), rootCause, chosen)
      : null,
    // Signatures are the precise layer; a cause none knows still gets its kind, said to be general.
    general: chosen.hit ? null : classifyCause({ ...rootCause, frames: cause.frames, phase: cause.phase }),
    groups: causes,
    symptoms,
    evidence: collectEvidence(best, groups),
    ...lastWordsOf(chosen),
    ...(failing.warning === undefined ? {} : { warnings: [failing.warning] }),
  };
}

/** Signatures that weigh less report a death that names no cause (a segfault, a signal, an exit status). */
const DEATH_WEIGHT = 0.1;

/**
 * A cause's signature of no kind (`GGML_ASSERT(...) failed`) takes the kind its message's words give, where
 * they give one: the assertion's condition (`hparams.n_swa > 0`) says what was wrong. Not a death's: a
 * shell's `Segmentation fault` line quotes the command, whose flags say nothing of the crash.
 */
function placeByWords(signature: SignatureMatch, rootCause: RootCause, chosen: Scored): SignatureMatch {
  if (signature.category !== 'other' || (chosen.hit?.signature.weight ?? 1) < DEATH_WEIGHT) return signature;
  const { frames, phase } = chosen.candidate;
  const general = classifyCause({ ...rootCause, frames, phase });
  return general.category === 'other' ? signature : { ...signature, category: general.category };
}

/** How many lines after a death its stack is looked for in. */
const STACK_AFTER = 40;

/**
 * A death that names no cause (a signature that weighs less than a cause, of no kind) takes its kind from
 * the stack printed after it, where one names the place (categories.ts CRASH_SITE_CATEGORIES).
 */
function placeDeath(signature: SignatureMatch, chosen: Scored): SignatureMatch {
  if (signature.category !== 'other' || (chosen.hit?.signature.weight ?? 1) >= 1) return signature;
  const { context, contextBefore } = chosen.candidate;
  // Known noise is no stack (PyTorch's exit warning from ProcessGroupNCCL.cpp).
  const stack = context
    .slice(contextBefore, contextBefore + STACK_AFTER)
    .filter((line) => !isNoise(line))
    .join('\n');
  const place = CRASH_SITE_CATEGORIES.find((row) => row.frames.test(stack));
  return place === undefined ? signature : { ...signature, category: place.category };
}

const LAST_WORDS = 5;
/** A supervisor's own line (systemd's, a container runtime's), not the server's. */
const SUPERVISOR_LINE = /\bsystemd\[\d+\]: |^\s*$/;

/**
 * A death that names no cause (a signal, an exit status, a worker that died unexpectedly: signatures that
 * weigh less than a cause) shows what the server was doing: its own last lines before it.
 */
function lastWordsOf(chosen: Scored): Pick<Diagnosis, 'lastWords'> {
  if (chosen.hit === null || (chosen.hit.signature.weight ?? 1) >= 1) return {};
  const { context, contextBefore, frames } = chosen.candidate;
  const before = context.slice(0, contextBefore);
  // A traceback's own lines are where it died, not what it was doing: the lines before the traceback.
  const opened = frames.length > 0 ? before.findLastIndex((line) => TRACEBACK_START.test(line)) : -1;
  const words = before
    .slice(0, opened === -1 ? before.length : opened)
    .filter((line) => !SUPERVISOR_LINE.test(line))
    .slice(-LAST_WORDS);
  return words.length > 0 ? { lastWords: words } : {};
}

/** What the last start shows of its health when nothing failed: readiness, a stop, or neither. */
function healthOf(attempt: Attempt | undefined): Diagnosis['health'] {
  if (attempt === undefined) return 'unseen';
  if (attempt.readyLine !== null) return 'ready';
  return attempt.stopLine !== null || attempt.stopped || attempt.shutDownLine !== null ? 'stopped' : 'unseen';
}

function findFailingAttempt(attempts: readonly Attempt[]): Attempt | null {
  let empty: Attempt | null = null;
  let warned: Attempt | null = null;
  for (let i = attempts.length - 1; i >= 0; i--) {
    const attempt = attempts[i] as Attempt;
    if (hasFatalEvidence(attempt)) {
      // systemd's refusal to start again (`Start request repeated too quickly`) ran nothing of the server:
      // the start before it, whose lines say why, is the one that failed.
      if (attempt.candidates.length === 0 && attempt.engineLines === 0) empty ??= attempt;
      // A start the log ends in after a warning it went past: an earlier start's death says more.
      else if (i === attempts.length - 1 && onlyWarnedPast(attempt)) warned = attempt;
      else return attempt;
      continue;
    }
    // A later start that became ready without failing means the service recovered.
    if (attempt.readyLine !== null) return warned;
  }
  return warned ?? empty;
}

/** Lines after a failure within which it still ends the log (attempt.ts's LIFE_AFTER_FAILURE counts work). */
const ENDS_THE_LOG = 30;

/** The lines the log holds after line `n`, less the stack frames it ends with (they belong to an error). */
function linesAfter(input: DiagnosisInput, n: number): number {
  return input.input.lines - (input.framesAtEnd ?? 0) - n;
}

/** The failing start and the candidates that count in it; null when no start failed. */
function findFailure(
  input: DiagnosisInput,
): { attempt: Attempt; candidates: Candidate[]; warning?: string } | null {
  const attempt = findFailingAttempt(input.attempts);
  if (attempt !== null) return { attempt, candidates: eligibleCandidates(attempt) };
  return (
    findKnownFailureAtEnd(input) ??
    findErrorAtEnd(input) ??
    findExitBeforeReady(input) ??
    findTerminatedBeforeReady(input) ??
    findLastWordsError(input) ??
    findStalledThenStopped(input.attempts) ??
    findFailedRequests(input.attempts)
  );
}

/** The log's last start, once the log is over, when it neither became ready nor was asked to stop. */
function lastUnfinishedStart(input: DiagnosisInput): Attempt | null {
  const attempt = input.ended === true ? input.attempts.at(-1) : undefined;
  if (attempt === undefined || attempt.readyLine !== null) return null;
  return attempt.stopLine !== null || attempt.stopped ? null : attempt;
}

/** A line logged at these levels says the server noted something and went on (a warning's fallback too). */
const SURVIVED_LEVELS = new Set(['INFO', 'DEBUG', 'WARNING']);
/** How many of the last lines (blank ones aside) may be the last words. */
const LAST_WORDS_READ = 3;

/**
 * The last start, when nothing was found in it but its log ends, with no readiness and no stop, in a line
 * that speaks of a failure in words no grammar knows (a runtime's own `Exception caught at file:...`): a
 * log that stops at an error is no all-clear, and that line is all it says of why.
 */
function findLastWordsError(input: DiagnosisInput): { attempt: Attempt; candidates: Candidate[] } | null {
  const attempt = lastUnfinishedStart(input);
  if (attempt === null || attempt.candidates.some((c) => c.fatal)) return null;
  const line = (input.lastLines ?? [])
    .slice(-LAST_WORDS_READ)
    .findLast((l) => !SURVIVED_LEVELS.has(l.level ?? '') && FAILURE_WORDS.test(l.text) && !isNoise(l.text));
  if (line === undefined) return null;
  return {
    attempt,
    candidates: [
      lineCandidate(attempt, line, { kind: 'error-line', message: line.text.trim(), key: `last:${line.n}` }),
    ],
  };
}

/** vLLM's SIGTERM handler: `raise KeyboardInterrupt("terminated")`. */
const TERMINATED = /\bterminated\b/;

/**
 * The last start of a server, when a SIGTERM ended it before it became ready, nothing asked for a stop
 * that the log shows (systemd's `Stopping`) and nothing came after: the start did not finish, and what
 * ended it is the finding (a supervisor's start timeout, a probe).
 */
function findTerminatedBeforeReady(
  input: DiagnosisInput,
): { attempt: Attempt; candidates: Candidate[] } | null {
  const attempt = lastUnfinishedStart(input);
  if (attempt === null || !attempt.server) return null;
  const signal = attempt.candidates.findLast(
    (c) =>
      c.exception !== null && /(?:^|\.)KeyboardInterrupt$/.test(c.exception) && TERMINATED.test(c.message),
  );
  if (signal === undefined || linesAfter(input, signal.line.n) >= ENDS_THE_LOG) return null;
  return { attempt, candidates: [signal] };
}

/**
 * The last start, when its process said it was exiting (exitMark) before it became ready, with no stop
 * asked for and no work after: the start ended there. What it was doing before is all the log holds of why.
 */
function findExitBeforeReady(input: DiagnosisInput): { attempt: Attempt; candidates: Candidate[] } | null {
  const attempt = lastUnfinishedStart(input);
  const mark = attempt?.exitMark ?? null;
  if (attempt === null || mark === null) return null;
  if (linesAfter(input, mark.line.n) >= ENDS_THE_LOG || attempt.work - mark.work >= WENT_ON) return null;
  return { attempt, candidates: [exitCandidate(attempt, mark)] };
}

function exitCandidate(attempt: Attempt, mark: ExitMark): Candidate {
  return lineCandidate(attempt, mark.line, {
    kind: 'failure-line',
    message: mark.message,
    key: `exit:${mark.line.n}`,
    context: mark.context,
    work: mark.work,
  });
}

/**
 * The last start, when the log ends in errors: no failure is only said with evidence of health, and a
 * server whose last words are errors, with no readiness, work or stop after them, shows none. Whatever
 * each line is (an error the server logged, a line no grammar knows as fatal), they are where it stopped.
 * Only once the log has ended.
 */
function findErrorAtEnd(input: DiagnosisInput): { attempt: Attempt; candidates: Candidate[] } | null {
  const attempt = input.ended === true ? input.attempts.at(-1) : undefined;
  if (attempt === undefined || attempt.stopLine !== null || attempt.stopped) return null;
  // What the server said it was ready after, it lived through.
  const ready = attempt.lastReadyLine ?? 0;
  const errors = attempt.candidates.filter(
    (c) => speaksOfFailure(c) && ready < c.line.n && c.phase !== 'request',
  );
  const last = errors.at(-1);
  if (last === undefined || linesAfter(input, last.line.n) >= ENDS_THE_LOG) return null;
  // A ready server that reported any work after its last error (a response, its metrics) went on; so
  // did a start that went on loading for a while.
  if (attempt.readyLine !== null && attempt.chatter > last.chatterBefore) return null;
  if (attempt.work - last.workBefore >= WENT_ON) return null;
  return { attempt, candidates: errors };
}

/**
 * The last start, when what ends the log is a message a signature knows as a failure, though nothing
 * marks it one: no level, no exception class (a pasted message line, a tool's bare complaint). A known
 * failure's words with nothing after them are that failure, whatever came before; anywhere else such a
 * line is only a hint. Only once the log has ended: while it grows (a start being watched), more may come.
 */
function findKnownFailureAtEnd(input: DiagnosisInput): { attempt: Attempt; candidates: Candidate[] } | null {
  const attempt = input.ended === true ? input.attempts.at(-1) : undefined;
  const last = attempt?.candidates.at(-1);
  if (attempt === undefined || last === undefined || last.wrapper) return null;
  if (linesAfter(input, last.line.n) >= ENDS_THE_LOG || (attempt.readyLine ?? 0) > last.line.n) return null;
  if ((attempt.stopLine ?? Infinity) < last.line.n) return null;
  const hit = matchSignature(last, input.signatures);
  const known = hit !== null && (hit.signature.weight ?? 1) >= 1 && hit.signature.blame !== 'context';
  return known ? { attempt, candidates: [last] } : null;
}

/** How far before a traceback's exception line the failure lines it may follow are looked for. */
const LINES_BEFORE = 200;

/**
 * The failure lines logged shortly before a traceback (a kernel's assertion, an NCCL warning): its own
 * context holds its frames, not what came before them.
 */
function linesBefore(candidate: Candidate, candidates: readonly Candidate[]): string[] {
  if (candidate.frames.length === 0) return [];
  const from = candidate.line.n - LINES_BEFORE;
  return candidates
    .filter((c) => c.kind === 'failure-line' && c.line.n >= from && c.line.n < candidate.line.n)
    .map((c) => c.line.raw);
}

/** `survived`: the work the server did after the candidate before it died (attempt.ts), a point a line. */
function scoreCandidate(
  candidate: Candidate,
  signatures: readonly Signature[],
  survived: number,
  around: readonly string[],
): Scored {
  const hit = matchSignature(candidate, signatures, around);
  let score = candidate.strength + candidate.chainBonus - survived;
  // A hint or warning the server went past, or that says it goes on (`Failed to get the IP address, using
  // 0.0.0.0 by default`), says less of its death than any pointer at the death itself (SGLang's `Ignore
  // import error when loading ...` at start-up against its later `SIGQUIT received`); a hint, less even
  // than a traceback that lost its exception line.
  if (!candidate.fatal && (survived >= LIVED_THROUGH || saysItGoesOn(candidate.message)))
    score -= candidate.kind === 'hint' ? WENT_PAST_HINT_PENALTY : LIVED_THROUGH;
  if (hit) score += SIGNATURE_PULL * (hit.signature.weight ?? 1);
  // Python's exit words (`resource_tracker: There appear to be 1 leaked shared_memory objects`) and a bare
  // stop's exception say only that a process ended: no more of why than a wrapper's pointer.
  if (
    candidate.wrapper ||
    exitMarkIn(candidate.message) !== -1 ||
    isBareStop(candidate.exception, candidate.message)
  )
    score -= WRAPPER_PENALTY;
  if (saysOnlyACode(candidate.exception, candidate.message)) score -= CODE_ONLY_PENALTY;
  if (candidate.wrapper && reportsClosedChannel(`${candidate.exception ?? ''}: ${candidate.message}`))
    score -= CLOSED_CHANNEL_PENALTY;
  // Settings are a cause only as a signature reads them: never before a wrapper's pointer otherwise.
  if (hit === null && candidate.kind === 'hint' && isSettingsDump(candidate.message))
    score -= SETTINGS_PENALTY;
  return { candidate, hit, score };
}

/** Highest score; on a tie the earliest, since the first causal error of a start is the cause. */
function pickBest(scored: readonly Scored[]): Scored | null {
  let best: Scored | null = null;
  for (const entry of scored) {
    const earlier = entry.candidate.line.n < (best?.candidate.line.n ?? 0);
    if (best === null || entry.score > best.score || (entry.score === best.score && earlier)) best = entry;
  }
  return best;
}

/** How many lines before a cut traceback its process's error is looked for. */
const SAID_BEFORE_CUT = 8;

/**
 * A traceback the excerpt cut before its exception line names nothing; the error its process logged just
 * before it does (SGLang's per-rank `Number of tokens in multimodal embedding does not match those in the
 * input text.` over `Scheduler hit an exception: Traceback ...`).
 */
function errorBeforeCut(chosen: Scored): Scored {
  const cut = chosen.candidate;
  const header = cut.line.raw;
  if (cut.exception !== null || !cut.message.startsWith(CUT_TRACEBACK) || !TRACEBACK_START.test(header))
    return chosen;
  const before = cut.context.slice(0, cut.contextBefore);
  // Its own first line as the context keeps it (a long one cut short), not a blank line or another
  // traceback's after it: the lines before it are numbered from it.
  const opened = before.findLastIndex((line) => line !== '' && header.startsWith(line));
  for (let i = opened - 1; i >= 0 && i >= opened - SAID_BEFORE_CUT && cut.line.n - (opened - i) >= 1; i--) {
    const line = parseLine(before[i] ?? '', cut.line.n - (opened - i));
    // A bare print right before the header is the process's own (SGLang's `Failed to instantiate MiniCPMV: ...`).
    const its = line.process === cut.line.process || (line.process === null && i === opened - 1);
    if (!its || !FAILURE_WORDS.test(line.text) || isNoise(line.text)) continue;
    return { ...chosen, candidate: { ...cut, kind: 'error-line', message: line.text.trim(), line } };
  }
  return chosen;
}

/** `Could not import Flash Attention enabled models: ...`: what the import would have given, named. */
const IMPORT_FAILURE =
  /\b(?:Could not|Failed to|Unable to|cannot) import (.+?)(?::\s|\s+with\s|\s+because\s|$)/i;
const MIN_SUBJECT_WORDS = 2;

/**
 * An earlier warning that an import failed, whose subject the failure names (`Sharded Llama requires
 * Flash Attention enabled models`): the server fell back without it and then could not go on.
 */
function findNamedImportFailure(failure: Candidate, candidates: readonly Candidate[]): Candidate | null {
  const named = failure.message.toLowerCase();
  const namespace = OP_NAMESPACE.exec(failure.message)?.[1];
  for (const c of candidates) {
    if (c === failure || c.line.n >= failure.line.n) continue;
    const subject = IMPORT_FAILURE.exec(c.message)?.[1]?.trim();
    if (subject === undefined) continue;
    if (subject.split(/\s+/).length >= MIN_SUBJECT_WORDS && named.includes(subject.toLowerCase())) return c;
    if (namespace !== undefined && registersOps(subject, namespace)) return c;
  }
  return null;
}

/** torch's error for an operator its native library never registered: `'_OpNamespace' '_C_ascend' object ...`. */
const OP_NAMESPACE = /'_OpNamespace' '(\w+)' object has no attribute/;

/**
 * Whether the native module an import failure names (`vllm._C`, `vllm_ascend_C:libvllm_ascend_kernels.so`)
 * is the one that registers an operator namespace: its last part is the namespace, or its words hold the
 * namespace's two or more words (`vllm_ascend_C` registers `_C_ascend`).
 */
function registersOps(subject: string, namespace: string): boolean {
  const module = subject.split(/[:\s]/, 1)[0] ?? '';
  if (module.slice(module.lastIndexOf('.') + 1) === namespace) return true;
  const words = new Set(module.split(/[._]/).filter(Boolean));
  const wanted = namespace.split('_').filter(Boolean);
  return wanted.length >= 2 && wanted.every((word) => words.has(word));
}

/**
 * The chosen failure, named where the same error was first logged; what the later copy showed (its frames,
 * the signature its context matched) still says what it is.
 */
function firstCopyOf(
  best: Scored,
  candidates: readonly Candidate[],
  signatures: readonly Signature[],
): Scored {
  const copy = findEarlierCopy(best.candidate, candidates);
  if (copy === null) return best;
  const candidate = copy.frames.length > 0 ? copy : { ...copy, frames: best.candidate.frames };
  return { candidate, hit: matchSignature(candidate, signatures) ?? best.hit, score: best.score };
}

/** Shorter texts are too common to say two lines are one error. */
const MIN_COPY = 40;
const squash = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** `text` ends with the start of `other` (a copy whose line the log cut): `...timeout: Work` and `... timeout: WorkNCCL(...)`. */
function endsWithStart(text: string, other: string): boolean {
  const at = text.indexOf(other.slice(0, MIN_COPY));
  return at !== -1 && other.startsWith(text.slice(at));
}

/**
 * The same error logged before the one chosen (a rank's own line before the C++ `what():` that repeats it,
 * a worker's error before its parent quotes it): the first copy is where it was raised.
 */
function findEarlierCopy(failure: Candidate, candidates: readonly Candidate[]): Candidate | null {
  const text = squash(failure.message);
  if (text.length < MIN_COPY) return null;
  return (
    candidates.find((c) => {
      // An exception's class is part of what it says: a copy without it says less.
      if (c.line.n >= failure.line.n || c.wrapper) return false;
      if (failure.exception !== null && c.exception === null) return nativeReportOf(c, text);
      if (!c.fatal) return relays(c, text);
      const other = squash(c.message);
      return (
        (other.length >= MIN_COPY &&
          (text.includes(other) || other.includes(text) || endsWithStart(text, other))) ||
        sameErrorOtherNumbers(c, failure)
      );
    }) ?? null
  );
}

const NUMBER = /\d+(?:\.\d+)?/g;

/**
 * The same exception with other numbers in its words (`CUDA out of memory. Tried to allocate 50.00 MiB.
 * GPU 0 ...` on one rank, then `... 100.00 MiB ...` on a retry or another rank): one failure, first met
 * where it was first raised.
 */
function sameErrorOtherNumbers(earlier: Candidate, later: Candidate): boolean {
  if (earlier.exception === null || earlier.exception !== later.exception || earlier.frames.length === 0)
    return false;
  const shape = (c: Candidate): string => firstLineOf(c.message).replace(NUMBER, '#');
  const said = shape(earlier);
  return said.length >= MIN_COPY && said === shape(later);
}

const firstLineOf = (text: string): string => squash(text.split('\n', 1)[0] ?? '');

/** A GPU runtime's report: `CUDA Error: REASON (209) /path/handler.cuh: line 169 at function f`. */
const NATIVE_REPORT = /^(?:CUDA|HIP|ROCm) [Ee]rror:? (.+?)(?: \(\d+\))?(?: \S*\/\S+.*)?$/;
const MIN_REASON = 30;

/**
 * A GPU runtime's error line, with its code and source, whose reason an exception raised after it repeats
 * (`RuntimeError: BatchDecodeWithPagedKVCache failed with error no kernel image is available ...`): the
 * line is where it happened, the exception the library passing it up.
 */
function nativeReportOf(c: Candidate, text: string): boolean {
  if (c.kind !== 'failure-line' || !c.crash) return false;
  const reason = NATIVE_REPORT.exec(squash(c.message))?.[1];
  return reason !== undefined && reason.length >= MIN_REASON && text.includes(reason);
}

/** A client's report of what its server raised: `Server error: Could not infer dtype of NoneType`. */
const RELAYED = /^(?:Server|Remote|Shard|Backend) error: (.+)$/;
const MIN_RELAYED = 24;

/**
 * An error line, logged before the failure, relaying another process's error that the failure quotes
 * (TGI's router logs the shard's `Server error: X`, then panics `Unable to warmup model: Generation("X")`).
 */
function relays(c: Candidate, text: string): boolean {
  if (c.kind !== 'error-line' || c.line.level !== 'ERROR') return false;
  const relayed = RELAYED.exec(squash(c.message))?.[1];
  return relayed !== undefined && relayed.length >= MIN_RELAYED && text.includes(relayed);
}

/**
 * A signature that blames a line beside the failure (a kernel's assertion before the host's error) finds it
 * among the last lines before; thousands of threads print the same line, so the first copy the start
 * logged is the one to name.
 */
function firstCopyBlamed(chosen: Scored, candidates: readonly Candidate[]): Scored {
  const context = chosen.hit?.signature.match.context;
  if (chosen.hit?.signature.blame !== 'context' || context === undefined) return chosen;
  const first = candidates.find((c) => c.line.n < chosen.candidate.line.n && context.test(cap(c.line.raw)));
  return first === undefined ? chosen : { ...chosen, hit: { ...chosen.hit, contextLine: first.line.raw } };
}

function describeRootCause(best: Scored, group: Group | undefined): RootCause {
  const { candidate, hit } = best;
  const blamed = hit?.signature.blame === 'context' && hit.contextLine !== null ? hit.contextLine : null;
  const frames = candidate.frames;
  return {
    exception: blamed === null ? (candidate.exception ?? hit?.signature.raises ?? null) : null,
    message: blamed ?? candidate.message,
    line: blamed ?? candidate.line.raw,
    lineNumber: candidate.line.n,
    processes: group
      ? sortProcesses([...group.processes])
      : candidate.line.process
        ? [candidate.line.process]
        : [],
    raiseSite: findRaiseSite(frames),
    crashSite: findCrashSite(frames),
  };
}

function describeGroup(group: Group): FailureGroup {
  const c = group.representative;
  return {
    exception: c.exception,
    message: c.message,
    processes: sortProcesses([...group.processes]),
    count: group.count,
    firstLineNumber: c.line.n,
  };
}

function collectEvidence(best: Scored, groups: readonly Group[]): Diagnosis['evidence'] {
  const lines = new Map<number, string>();
  const add = (n: number, text: string): void => {
    if (lines.size < MAX_EVIDENCE) lines.set(n, text);
  };
  add(best.candidate.line.n, best.candidate.line.raw);
  // The crash before the hints: fatal errors, then the wrappers that point at them, then what only hinted,
  // nearest the failure first.
  const hints = groups.filter((g) => !g.representative.fatal && !g.representative.wrapper);
  const ranked = [
    groups.filter((g) => g.representative.fatal && !g.representative.wrapper),
    groups.filter((g) => g.representative.wrapper),
    hints.sort((a, b) => b.representative.line.n - a.representative.line.n),
  ];
  for (const group of ranked.flat()) {
    if (group.representative !== best.candidate)
      add(group.representative.line.n, group.representative.line.raw);
  }
  return [...lines.entries()].sort((a, b) => a[0] - b[0]).map(([lineNumber, text]) => ({ lineNumber, text }));
}

/** `Worker_TP10` after `Worker_TP9`: numbers compare as numbers. */
function sortProcesses(processes: string[]): string[] {
  return processes.sort(compareProcessNames);
}

function pickEngine(votes: ReadonlyMap<Engine, number>): Engine | null {
  let best: Engine | null = null;
  let most = 0;
  for (const [engine, count] of votes) {
    if (count > most) {
      best = engine;
      most = count;
    }
  }
  return best;
}
