import type { ParsedLine } from '../parsing/parsed-line.js';
import { announcesException, type Traceback } from '../parsing/traceback.js';
import type { Candidate } from './candidate.js';
import { unwrapTerminalLines } from '../parsing/unwrap-lines.js';
import { fingerprintFailure } from './fingerprint.js';
import { anyOf } from './knowledge/any-of.js';
import { BUILD_ERROR, FAILURE_LINES, type FailureLine } from './knowledge/failure-lines.js';
import { saysItGoesOn } from './knowledge/failure-words.js';
import { TRIGGER } from './knowledge/may-matter.js';
import { isCauseHint } from './knowledge/markers.js';
import { isNoise } from './knowledge/noise.js';
import { saysCancelled, STOPPED, WATCHED_GONE } from './knowledge/shutdown.js';
import { phaseOf } from './knowledge/phases.js';
import { innerCauseOf, isWrapper, relaysBareStatus } from './knowledge/wrappers.js';
import { bareRaiseSite, saysNothing } from './bare-raise.js';

export type Draft = Omit<
  Candidate,
  | 'attempt'
  | 'afterReady'
  | 'context'
  | 'contextBefore'
  | 'fingerprint'
  | 'chainBonus'
  | 'crash'
  | 'phase'
  | 'chatterBefore'
  | 'workBefore'
> & {
  crash?: boolean;
  /** Its message is the next line (runtimes' `messageOnNextLine`). */
  awaitsMessage?: boolean;
  /** Its message is the line before (runtimes' `messageOnLineBefore`). */
  takesLineBefore?: boolean;
  /** Its message goes on on the rows after it that match this (runtimes' `continuation`). */
  continuation?: RegExp;
};

/** A message before `Traceback (most recent call last):` on its line, after the header's colon. */
const SAID_BEFORE_TRACEBACK = /^.*?:\s+(\S.*?),?\s*Traceback \(most recent call last\):?\s*$/;
const MIN_SAID_WORDS = 3;
/** An error's words with its frames but not its class: as an exception line with no frames. */
const SAID_STRENGTH = 40;
/** A header that only announces the traceback under it: below a bare exception's strength (10). */
const ANNOUNCED = 5;
/** Candidates from a finished traceback: its exception, and for build failures the compiler's line. */
export function draftsFromTraceback(traceback: Traceback, firstLine: ParsedLine): Draft[] {
  const [detail, rewrapped] = unwrapMessage(traceback);
  if (traceback.exception === null) {
    const said = SAID_BEFORE_TRACEBACK.exec(firstLine.text)?.[1];
    // vLLM's worker wrote its error's message on the traceback's first line (`Exception in worker X while
    // processing method load_model: MESSAGE, Traceback ...`): the cut excerpt still says what was raised.
    if (said !== undefined && said.split(/\s+/).length >= MIN_SAID_WORDS)
      return [
        {
          kind: 'error-line',
          exception: null,
          message: said,
          line: firstLine,
          frames: traceback.frames,
          detail,
          strength: SAID_STRENGTH,
          fatal: traceback.level !== 'WARNING',
          wrapper: false,
        },
      ];
    // Proof of a failure whose exception line the excerpt lost; it wins only when nothing else exists, not
    // even a wrapper's pointer (`EngineDeadError`, a worker that died): those at least say something. One a
    // logger wrote as a warning (torch.compile's `Original traceback:` of a cache it rebuilt) was survived.
    return [
      {
        kind: 'exception',
        exception: null,
        message: endedAt(traceback),
        line: firstLine,
        frames: traceback.frames,
        detail,
        strength: -200,
        fatal: traceback.level !== 'WARNING',
        wrapper: false,
      },
    ];
  }
  const message = joinMessage(withAssertion(traceback) + rewrapped, detail);
  const wrapper = isWrapper(`${traceback.exception}: ${traceback.message}`);
  // A traceback a logger wrote as a warning (vLLM's `Module X was found but failed to import`) was survived;
  // so was one raised in a destructor (`__del__`), which Python prints and ignores as objects are freed, and a
  // watcher's word that a process it watched is gone, and work cancelled as a process unwinds; so was the
  // error of Python's resource tracker, a helper process that tidies shared memory as the program exits.
  const warning =
    traceback.exception.endsWith('Warning') ||
    STOPPED.test(traceback.exception) ||
    WATCHED_GONE.test(traceback.exception) ||
    saysCancelled(traceback.message) ||
    traceback.messageLine?.level === 'WARNING' ||
    traceback.frames[0]?.function === '__del__' ||
    raisedInResourceTracker(traceback);
  const drafts: Draft[] = [
    {
      kind: 'exception',
      exception: traceback.exception,
      message,
      line: traceback.messageLine ?? firstLine,
      frames: traceback.frames,
      detail,
      strength: warning ? 10 : strengthOf(traceback),
      fatal: !warning,
      wrapper,
      crash: CRASH_MESSAGE.test(traceback.message),
    },
  ];
  // "Ninja build failed" and its kin: the cause is the compiler or linker line printed inside the message.
  const summary = wrapper || traceback.message.trim() === '' || BUILD_SUMMARY.test(traceback.message);
  const buildLine = summary ? traceback.detail.find((line) => BUILD_ERROR.test(line.text)) : undefined;
  // A loader's summary that lists what each attempt raised (`- ImportError: ...undefined symbol`).
  const listed = summary
    ? (findRaisedException(traceback) ??
      findListedException(traceback.detail) ??
      findClosingException(traceback.detail) ??
      findReprException(traceback.detail))
    : null;
  if (listed) {
    drafts.push({
      kind: 'exception',
      exception: listed.type,
      message: listed.message,
      line: listed.line,
      frames: traceback.frames,
      detail,
      strength: 46,
      fatal: true,
      wrapper: false,
    });
  }
  // A launcher's summary that quotes how its child ended (torchrun's `traceback : Signal 9 (SIGKILL)
  // received by PID 14750` in its `ChildFailedError` table): that line, as any runtime reads it.
  const quoted = summary && !listed && !buildLine ? findFailureLine(traceback.detail) : null;
  if (quoted) drafts.push({ ...quoted, frames: traceback.frames, detail });
  if (buildLine) {
    drafts.push({
      kind: 'exception',
      exception: traceback.exception,
      message: buildLine.text.trim(),
      line: buildLine,
      frames: traceback.frames,
      detail,
      strength: 52,
      fatal: true,
      wrapper: false,
    });
  }
  return drafts;
}

/** A build's own failure, whose output below it holds the compiler's or the shell's reason. */
const BUILD_SUMMARY =
  /\bninja exited with status\b|\bError building extension\b|\bNinja build failed\b|\bbuild stopped: subcommand failed/;

const LISTED_EXCEPTION = /^\s*[-*] ([A-Z]\w*(?:Error|Exception)): (.+)/;

/** An exception's own line, as Python prints it, inside another's message. */
const CLOSING_EXCEPTION = /^\s*((?:[a-z_]\w*\.)*[A-Z]\w*(?:Error|Exception)): (.+)/;

/** What follows `raised:` is the exception the backend raised, whatever its class is called (`OutOfResources`). */
const RAISED_EXCEPTION = /^\s*((?:[a-z_]\w*\.)*[A-Z]\w*): (.+)/;
const RAISED_BY = /\braised:\s*$/;

/** The exception on the line after a wrapper's `raised:`. */
const findRaisedException = (traceback: Traceback): ExceptionLine | null =>
  RAISED_BY.test(traceback.message)
    ? findExceptionLine(traceback.detail.slice(0, 1), RAISED_EXCEPTION, false)
    : null;

/**
 * The exception a compiler met, as its repr closes the compiler's message (Triton's `CompilationError: at
 * 1:0:`, the kernel source and a caret, then `ValueError("type fp8e4nv not supported ...")`).
 */
const REPR_EXCEPTION = /^\s*((?:[a-z_]\w*\.)*[A-Z]\w*(?:Error|Exception))\((['"])(.+)\2\)\s*$/;

const findReprException = (lines: readonly ParsedLine[]): ExceptionLine | null =>
  findExceptionLine(lines, REPR_EXCEPTION, true, 3);

/** A loader's list of what each attempt raised: its first entry. */
const findListedException = (lines: readonly ParsedLine[]): ExceptionLine | null =>
  findExceptionLine(lines, LISTED_EXCEPTION, false);

/**
 * The error a wrapper's message closes with (TorchScript's interpreter prints its own traceback, then the
 * exception it ran into): the last exception line of the message.
 */
const findClosingException = (lines: readonly ParsedLine[]): ExceptionLine | null =>
  findExceptionLine(lines, CLOSING_EXCEPTION, true);

interface ExceptionLine {
  type: string;
  message: string;
  line: ParsedLine;
}

/** `pattern`'s first group is the class; `messageGroup` the message. */
function findExceptionLine(
  lines: readonly ParsedLine[],
  pattern: RegExp,
  last: boolean,
  messageGroup = 2,
): ExceptionLine | null {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[last ? lines.length - 1 - i : i] as ParsedLine;
    const m = pattern.exec(line.text);
    if (m) return { type: m[1] ?? '', message: m[messageGroup] ?? '', line };
  }
  return null;
}

/** An error line that says the start itself failed, not a request. */
const STARTUP_FAILED =
  /\b(?:failed to (?:initiali[sz]e|start|load|allocate|create|launch)|initiali[sz]ation failed|could not (?:load|start|initiali[sz]e)|cannot (?:load|start|allocate)|out of memory|insufficient (?:GPU )?memory)/i;

/** TRIGGER and STARTUP_FAILED, their words looked for first (knowledge/any-of.ts): asked of every line read. */
const mayFail = anyOf([TRIGGER]);
const saysStartFailed = anyOf([STARTUP_FAILED]);

/** Failures that crash a server whenever they happen, even after it became ready. */
const CRASH_MESSAGE =
  /CUDA error|illegal memory access|out of memory|device-side assert|NCCL error|Segmentation fault/i;

/** A whole traceback says more than a lone exception line; an empty message says least. */
function strengthOf(traceback: Traceback): number {
  // No words of its own, or only an object's address (a KeyError keyed by an object).
  if (saysNothing(traceback.message)) return 30;
  if (traceback.frames.length === 0) return 40;
  return traceback.truncated ? 48 : 50;
}

/**
 * A message a terminal wrapped at its width (`...an illegal memory acc` / `ess was encountered`): what its
 * first line lost, and the detail lines as the program wrote them.
 */
function unwrapMessage(traceback: Traceback): [string[], string] {
  const first = traceback.messageLine;
  if (first === null || traceback.detail.length === 0) return [traceback.detail.map((line) => line.text), ''];
  const [head, ...rest] = unwrapTerminalLines([first, ...traceback.detail]);
  const rewrapped = head === undefined ? '' : head.raw.slice(first.raw.length);
  return [rest.map((line) => line.text), rewrapped];
}

export const CUT_TRACEBACK = 'a traceback ended before its exception line';

/** A traceback the excerpt cut before its exception line: the line of code it stopped at says most. */
function endedAt(traceback: Traceback): string {
  const code = traceback.frames.at(-1)?.code ?? '';
  return code === '' ? CUT_TRACEBACK : `${CUT_TRACEBACK}, at: ${code}`;
}

/**
 * An assertion says little by its message alone; the `assert` statement its frame shows says what failed
 * (`assert world_size <= torch.cuda.device_count(), "Each process is one gpu"`).
 */
function withAssertion(traceback: Traceback): string {
  const message = traceback.message;
  const code = traceback.frames.at(-1)?.code ?? '';
  if (!/(?:^|\.)AssertionError$/.test(traceback.exception ?? '') || !code.startsWith('assert '))
    return message === '' ? bareRaiseSite(traceback) : message;
  if (message === '' || code.includes(message)) return code;
  return `${message} (${code})`;
}

/** A multi-line message keeps its first lines (TGI's GatedRepoError says why on its third). */
export function joinMessage(first: string, detail: readonly string[]): string {
  const kept: string[] = [first];
  for (const text of detail.slice(0, 5)) {
    if (isNoise(text) || BUILD_ERROR.test(text)) break;
    kept.push(text.trim());
  }
  return kept.join('\n').slice(0, 2000);
}

/** `Failed to import from vllm._C with ImportError('...')`: a warning that carries an exception. */
const EMBEDDED_EXCEPTION = /\bwith ([A-Z]\w*(?:Error|Exception))\(/;

/**
 * Hints of something broken (a module or symbol missing, an import that failed) outweigh hints of
 * something merely unsupported or absent, which servers also log when all is well.
 */
const BREAKAGE_HINT =
  /No module named|undefined symbol|import error|Failed to import|cannot import|Could not import/i;

/** A candidate from a line outside any traceback, or null for an ordinary line. */
export function draftFromLine(line: ParsedLine): Draft | 'noise' | null {
  const text = line.text;
  const leveled = line.level === 'ERROR' || line.level === 'CRITICAL' || line.level === 'WARNING';
  if (!leveled && !mayFail(text)) return null;
  if (isNoise(text)) return 'noise';
  const base: Base = { line, frames: [], detail: [] };
  // An INFO or DEBUG line is the server reporting, not failing (request logs quote prompts full of
  // error words): only the rows that platform detection logs that way, a wrapper, or a hint.
  const reporting = line.level === 'INFO' || line.level === 'DEBUG';
  // The regex's own words first: most error lines hold no `with `.
  const embedded = reporting || !text.includes('with ') ? null : EMBEDDED_EXCEPTION.exec(text);
  if (embedded) {
    return {
      ...base,
      kind: 'hint',
      exception: embedded[1] ?? null,
      message: text.trim(),
      strength: 45,
      fatal: true,
      wrapper: false,
    };
  }
  const read = readRow(text, reporting);
  if (read !== null) return draftFromRow(read.row, read.m, base);
  if (isWrapper(text)) {
    const inner = innerCauseOf(text);
    return inner === null ? lineDraft(base, 'error-line', 10, true, true) : innerDraft(base, inner);
  }
  // Indented or symbol-only lines at ERROR level are pieces of a traceback whose start was cut.
  if (!reporting && (line.level === 'ERROR' || line.level === 'CRITICAL') && /^\S.*[A-Za-z]{3}/.test(text)) {
    // A header over the traceback it announces says less than any exception in that traceback.
    const strength = announcesException(text.trim()) ? ANNOUNCED : 22;
    return lineDraft(base, 'error-line', strength, line.level === 'CRITICAL' || saysStartFailed(text), false);
  }
  if (!isCauseHint(text)) return null;
  if (BREAKAGE_HINT.test(text)) return lineDraft(base, 'hint', 12, false, false);
  // Something absent that the server says it does without (`deep_gemm not found in site-packages, trying
  // vendored ...`) hints at nothing.
  return saysItGoesOn(text) ? null : lineDraft(base, 'hint', 8, false, false);
}

type Base = Pick<Draft, 'line' | 'frames' | 'detail'>;

/** The first of the lines a runtime's grammar reads as a failure, as a draft of its own. */
function findFailureLine(lines: readonly ParsedLine[]): Draft | null {
  for (const line of lines) {
    const read = readRow(line.text, false);
    if (read !== null) return draftFromRow(read.row, read.m, { line, frames: [], detail: [] });
  }
  return null;
}

/** The runtime row that reads a text as a failure (on a line logged at INFO, only the quiet ones). */
function readRow(text: string, reporting: boolean): { row: FailureLine; m: RegExpExecArray } | null {
  if (!matchesAnyFailureLine(text)) return null;
  for (const row of FAILURE_LINES) {
    if (reporting && !row.quiet) continue;
    const m = row.pattern.exec(text);
    if (m !== null) return { row, m };
  }
  return null;
}

/** One test before the rows are tried one by one to find which matched. */
const matchesAnyFailureLine = anyOf(FAILURE_LINES.map((row) => row.pattern));

function draftFromRow(row: FailureLine, m: RegExpExecArray, base: Base): Draft {
  const text = base.line.text;
  const message = (row.message?.(m) ?? text).trim();
  // A wrapper that relays only how its child died is that death's report, not a pointer elsewhere.
  const wrapper = isWrapper(text) && !relaysBareStatus(text);
  const inner = wrapper ? innerCauseOf(text) : null;
  if (inner !== null) return innerDraft(base, inner);
  const exception = typeof row.exception === 'function' ? row.exception(m) : (row.exception ?? null);
  const draft: Draft = {
    line: base.line,
    frames: base.frames,
    detail: base.detail,
    kind: 'failure-line',
    exception,
    message: exception ? message.replace(/^.*?(?=\[Errno)/, '') : message,
    strength: row.strength,
    // An error-level line that says the start itself failed proves it, whichever row read it.
    fatal:
      (row.fatal && !(row.notFatalAsWarning === true && base.line.level === 'WARNING')) ||
      wrapper ||
      (isErrorLevel(base.line) && saysStartFailed(text)),
    wrapper,
    // A logger's warning went on after it was written: what it quotes (a compiler's echo of a `Check
    // failed:` in source code, a probe's segfault) is no crash of this server.
    crash: row.crash === true && base.line.level !== 'WARNING',
  };
  if (row.messageOnNextLine === true && /:\s*$/.test(text)) draft.awaitsMessage = true;
  if (row.messageOnLineBefore === true) draft.takesLineBefore = true;
  if (row.continuation !== undefined) draft.continuation = row.continuation;
  return draft;
}

/** The error a wrapper's message relays (knowledge/wrappers.ts): the cause, on the wrapper's line. */
function innerDraft(base: Base, message: string): Draft {
  const { line, frames, detail } = base;
  return {
    line,
    frames,
    detail,
    kind: 'failure-line',
    exception: null,
    message,
    strength: 41,
    fatal: true,
    wrapper: false,
  };
}

const isErrorLevel = (line: ParsedLine): boolean => line.level === 'ERROR' || line.level === 'CRITICAL';

function lineDraft(
  base: Base,
  kind: Draft['kind'],
  strength: number,
  fatal: boolean,
  wrapper: boolean,
): Draft {
  // Written out, not spread: drafts come in several shapes, and spreading them is slow (this runs for every
  // failure line of a long log).
  const { line, frames, detail } = base;
  return { line, frames, detail, kind, exception: null, message: line.text.trim(), strength, fatal, wrapper };
}

/**
 * `draft` as drafted from another line: the line's own, the rest as it was. Field by field, as lineDraft:
 * this runs for every repeat of a failure line.
 */
export function redraft(draft: Draft, line: ParsedLine): Draft {
  const { kind, exception, message, strength, fatal, wrapper, crash, awaitsMessage } = draft;
  const again: Draft = { line, frames: [], detail: [], kind, exception, message, strength, fatal, wrapper };
  if (crash !== undefined) again.crash = crash;
  if (awaitsMessage !== undefined) again.awaitsMessage = awaitsMessage;
  return again;
}

/** What makes a draft the same failure as another (fingerprint.ts). */
export function fingerprintDraft(draft: Draft): string {
  return fingerprintFailure(draft.exception, draft.message, draft.frames);
}

export function completeDraft(
  draft: Draft,
  attempt: number,
  afterReady: boolean,
  context: string[],
  chatterBefore = 0,
  fingerprint = fingerprintDraft(draft),
  workBefore = 0,
): Candidate {
  // Field by field, not `...draft`, for the same reason as lineDraft.
  return {
    kind: draft.kind,
    exception: draft.exception,
    message: draft.message,
    line: draft.line,
    frames: draft.frames,
    detail: draft.detail,
    strength: draft.strength,
    fatal: draft.fatal,
    wrapper: draft.wrapper,
    chainBonus: 0,
    attempt,
    afterReady,
    crash: draft.crash ?? false,
    phase: phaseOf(draft.frames),
    chatterBefore,
    workBefore,
    fingerprint,
    context,
    contextBefore: context.length,
  };
}

/** Raised in Python's resource tracker (`KeyError: '/mp-h1ustgxb'` as it unlinks shared memory another process freed). */
const raisedInResourceTracker = (traceback: Traceback): boolean =>
  traceback.frames.at(-1)?.file.endsWith('multiprocessing/resource_tracker.py') === true;
