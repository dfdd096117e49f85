import { ASSERTS_NOTHING } from '../runtimes/cpp/ggml-asserts.js';
import type { Signature } from '../signatures/define-signature.js';
import type { Candidate } from './candidate.js';
import { kindOfCause } from './classify/classify-cause.js';
import { hasFailureWords } from './knowledge/failure-words.js';
import { matchSignature, type SignatureHit } from './match-signature.js';

/** A candidate as weighed: the signature it matched and its score. */
export interface Scored {
  candidate: Candidate;
  hit: SignatureHit | null;
  score: number;
}

/** Lines apart within which failure lines of one process are one burst. */
const BURST_GAP = 3;

/**
 * The chosen failure line, named where its burst began: the lines a process logs one after another about
 * one failure (Mesa's `VK_ERROR_OUT_OF_DEVICE_MEMORY`, then ggml's `Device memory allocation ... failed`,
 * then `ErrorOutOfDeviceMemory`) say it first where it happened, and together: each says a part. An
 * error line before an assertion that names nothing (`GGML_ASSERT(ok) failed`) says what failed.
 */
export function firstOfBurst(
  chosen: Scored,
  candidates: readonly Candidate[],
  signatures: readonly Signature[],
): Scored {
  let current = chosen;
  for (;;) {
    const at = current.candidate.line.n;
    // A pointer between them (`EngineCore encountered a fatal error.`) points at the line before it.
    const before = candidates.findLast((c) => c.line.n < at && !c.wrapper);
    if (before === undefined) return current;
    const hit = matchSignature(before, signatures);
    const same = sameKind(before, hit, current);
    const echo = echoes(current.candidate, before);
    const explains = namesNothing(current.candidate) && saysError(before);
    if (!same && !echo && !explains) return current;
    if (!inBurst(before, current.candidate, echo || explains, same)) return current;
    // Its kind stays the later line's where the earlier says only the same; so do its words, after the first.
    const message = same ? `${before.message}\n${current.candidate.message}` : before.message;
    const exception = before.exception ?? (same ? current.candidate.exception : null);
    const candidate = { ...before, message, exception };
    // Matched again as the line it now is: a signature that blames a line of its context blames this one.
    const again = same ? matchSignature(candidate, signatures) : null;
    current = { candidate, hit: again ?? hit ?? (same ? current.hit : null), score: current.score };
  }
}

/** Lines from a native error to the end of the traceback that carried it up, at most. */
const TRACEBACK_REACH = 120;

/** `linked`: the later line echoes the earlier, or names nothing the earlier explains (then it need not be fatal). */
function inBurst(before: Candidate, after: Candidate, linked: boolean, same: boolean): boolean {
  const lineBefore =
    (before.kind === 'failure-line' || before.kind === 'error-line') &&
    (before.fatal || linked) &&
    !before.wrapper &&
    samePlace(before, after);
  if (!lineBefore) return false;
  if (after.kind !== 'exception') return after.line.n - before.line.n <= BURST_GAP;
  // A native library's error line (`CUDA Error: out of memory (2) .../handler.cuh: line 100 at function
  // cudaMallocAsync`), then the traceback of the exception that carried it up to Python saying the same
  // less exactly, with no work between: the line says where it happened. A logger's copy of the
  // exception's own words (or the exception quoting the line whole) adds nothing.
  const said = firstLine(before.message);
  const raised = firstLine(after.message);
  return (
    same &&
    before.kind === 'failure-line' &&
    after.frames.length > 0 &&
    after.workBefore === before.workBefore &&
    // Counted from its last copy: a device assert is printed once per thread, hundreds of lines.
    after.line.n - (before.lastCopyLine ?? before.line.n) <= TRACEBACK_REACH &&
    !said.includes(raised) &&
    !raised.includes(said)
  );
}

/**
 * Both said by one process; or a native line with no tag of its own (the CUDA runtime's device assert, printed
 * bare) before the exception a tagged process raised of it.
 */
const samePlace = (before: Candidate, after: Candidate): boolean =>
  before.line.process === after.line.process || (before.line.process === null && after.kind === 'exception');

const firstLine = (text: string): string => text.split('\n', 1)[0]?.trim() ?? '';

/** Both of one kind other than `other`: the signature's, or the general one. */
function sameKind(before: Candidate, hit: SignatureHit | null, after: Scored): boolean {
  const kind = kindOf(before, hit);
  return kind !== 'other' && kind === kindOf(after.candidate, after.hit);
}

function kindOf(c: Candidate, hit: SignatureHit | null): string {
  return hit?.signature.category ?? kindOfCause({ ...c, frames: c.frames, phase: c.phase });
}

/**
 * Whether a crash repeats the error logged just before it: a Rust `panicked at 'Could not connect to
 * server: Connection("transport error")'` after `ERROR ... Could not connect to Text Generation server:
 * transport error` is that error, unwrapped where it was not handled. The earlier line's last words
 * (after its last `: `) must be a phrase of their own, found in the crash's message.
 */
const MIN_ECHO = 10;
function echoes(crash: Candidate, before: Candidate): boolean {
  if (before.line.level !== 'ERROR' && before.line.level !== 'CRITICAL') return false;
  const said = before.message.slice(before.message.lastIndexOf(': ') + 2).trim();
  return said.length >= MIN_ECHO && /\s/.test(said) && crash.message.includes(said);
}

/** A signal's death names no cause: the error its process logged just before it does (`Segmentation fault`). */
const SIGNAL_DEATH =
  /\b(?:segmentation fault|SIGSEGV|SIGABRT|SIGBUS|SIGILL|SIGFPE|bus error|illegal instruction|floating point exception)\b|^Aborted\b/i;

const namesNothing = (c: Candidate): boolean =>
  ASSERTS_NOTHING.test(c.message) || (c.crash && c.exception === null && SIGNAL_DEATH.test(c.message));
const saysError = (c: Candidate): boolean => hasFailureWords(c.message);
