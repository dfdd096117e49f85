import { aimSignature } from '../fix/aim-fix.js';
import { fillActions, fillCommand, fillText } from '../fix/fill-captures.js';
import { lastSegment } from '../parsing/traceback.js';
import type { Signature } from '../signatures/define-signature.js';
import type { Engine, SignatureMatch } from '../types/diagnosis.js';
import type { Candidate } from './candidate.js';
import { LIMITS } from '../limits.js';

/** Patterns never see more than this of a line, so no pattern can take long whatever the input. */
const MAX_PATTERN_INPUT = LIMITS.patternInputChars;

export interface SignatureHit {
  signature: Signature;
  captures: Record<string, string>;
  /** The context line a signature blamed instead of the candidate, when it says so. */
  contextLine: string | null;
}

/**
 * The best-weighted signature that matches the candidate, or null. `around`: lines beside the candidate that its own context does not reach (the failure lines logged just
 * before a long traceback began), read by `context` patterns after the candidate's own.
 */
export function matchSignature(
  candidate: Candidate,
  signatures: readonly Signature[],
  around: readonly string[] = [],
): SignatureHit | null {
  const haystack = cap(
    `${candidate.exception ?? ''}: ${candidate.message} ${candidate.line.raw}`,
  ).toLowerCase();
  let best: SignatureHit | null = null;
  for (const signature of signatures) {
    if (best && (best.signature.weight ?? 1) >= (signature.weight ?? 1)) continue;
    if (
      signature.keywords.length > 0 &&
      !signature.keywords.some((k) => haystack.includes(k.toLowerCase()))
    ) {
      continue;
    }
    const hit = testSignature(signature, candidate, around);
    if (hit) best = hit;
  }
  return best;
}

function testSignature(
  signature: Signature,
  candidate: Candidate,
  around: readonly string[],
): SignatureHit | null {
  const { match } = signature;
  const captures: Record<string, string> = {};
  if (match.exception !== undefined && !exceptionMatches(match.exception, candidate.exception)) return null;
  if (match.message) {
    const m =
      match.message.exec(cap(candidate.message)) ??
      match.message.exec(cap(candidate.line.raw)) ??
      match.message.exec(cap(`${candidate.exception ?? ''}: ${candidate.message}`));
    if (!m) return null;
    Object.assign(captures, m.groups);
  }
  if (match.process && !match.process.test(cap(candidate.line.process ?? ''))) return null;
  if (match.frames) {
    const frames = match.frames;
    if (!candidate.frames.some((f) => frames.test(cap(`${f.file}:${f.function}`)))) return null;
  }
  const nearby = [...candidate.detail, ...candidate.context];
  let contextLine: string | null = null;
  if (match.context) {
    const context = match.context;
    // The candidate's own line first: a burst's first line (a kernel's assertion of one thread) that the
    // context names is what is blamed, not a later thread's copy in its context.
    const found = [candidate.line.raw, ...nearby, ...around].find((text) => context.test(cap(text)));
    if (found === undefined) return null;
    Object.assign(captures, context.exec(cap(found))?.groups);
    contextLine = found;
  }
  if (match.captures) {
    const pattern = match.captures;
    const found = nearby.find((text) => pattern.test(cap(text)));
    // Only the groups a line gave: an unset one must not hide a capture of the message with the same name.
    const groups = found === undefined ? undefined : pattern.exec(cap(found))?.groups;
    for (const [name, value] of Object.entries(groups ?? {})) if (value !== undefined) captures[name] = value;
  }
  return { signature, captures, contextLine };
}

function exceptionMatches(expected: string | RegExp | null, actual: string | null): boolean {
  if (expected === null) return actual === null;
  if (actual === null) return false;
  if (typeof expected === 'string') return lastSegment(actual) === lastSegment(expected);
  return expected.test(cap(actual));
}

/** A line as far as signatures' patterns read it. */
export function cap(text: string): string {
  return text.length > MAX_PATTERN_INPUT ? text.slice(0, MAX_PATTERN_INPUT) : text;
}

/** The signature as reported, its `{name}` placeholders filled from what the patterns captured. */
export function describeSignature(hit: SignatureHit, engine: Engine | null = null): SignatureMatch {
  const { signature, captures } = hit;
  const described: SignatureMatch = {
    id: signature.id,
    title: fillText(signature.title, captures),
    category: signature.category,
    explanation: fillText(signature.explanation, captures),
    // A fix is copied into a shell, so each capture is quoted where it lands (fix/fill-captures.ts).
    fix: fillCommand(signature.fix, captures),
    ...(signature.action === undefined ? {} : { action: fillActions(signature.action, captures) }),
    ...(signature.alternative ? { alternative: fillCommand(signature.alternative, captures) } : {}),
    references: signature.references,
  };
  // Written for this machine and the engine that crashed until a command says where the server runs.
  return aimSignature(described, { place: { kind: 'local' }, environment: null, engine });
}
