import { diagnose } from '../diagnosis/index.js';
import type { Signature } from '../signatures/define-signature.js';
import type { Diagnosis } from '../types/diagnosis.js';
import { buildHaystack, type Boundary, type LabelledLog } from './build-haystack.js';
import { categoryOf, scoreCase, type CaseLabel } from './score-case.js';

/** One labelled log, read by the caller. */
export interface LabelledCase {
  name: string;
  text: string;
  label: CaseLabel;
}

export interface EvaluateOptions {
  /** Healthy logs each case is placed after (`--haystack`); none: the case alone. */
  haystack?: readonly LabelledCase[];
  /** Which of the haystack's logs a case is placed after: all of them (the default), or a choice. */
  pickHaystack?: (healthy: readonly LabelledCase[], failure: LabelledCase) => readonly LabelledCase[];
  boundary?: Boundary;
  /** The signatures to match; `[]` scores the general classifier alone (`--no-signatures`). */
  signatures?: readonly Signature[];
}

export interface CaseResult {
  name: string;
  healthy: boolean;
  rootCause: boolean;
  category: boolean;
  /** The category the diagnosis gave, from a signature or the general classifier. */
  gotCategory: string | null;
  expectedCategory: string | null;
  /** The diagnosis said "no failure found" (exit 0). */
  allClear: boolean;
  reason: string;
}

/** Diagnoses each case (inside the haystack when one is given) and scores it by the corpus rule. Pure. */
export function evaluateCases(cases: readonly LabelledCase[], options: EvaluateOptions = {}): CaseResult[] {
  const haystack = options.haystack ?? [];
  const boundary = options.boundary ?? 'none';
  const diagnoseText = (text: string): Diagnosis =>
    diagnose(text, options.signatures === undefined ? {} : { signatures: options.signatures });
  return cases.map((c) => {
    const healthy = (options.pickHaystack?.(haystack, c) ?? haystack).map(toLog);
    const hay = buildHaystack(healthy, toLog(c), boundary);
    const diagnosis = diagnoseText(hay.text);
    const score = scoreCase(diagnosis, c.label);
    const found = diagnosis.rootCause;
    // A cause named inside the healthy logs is a healthy log blamed, whatever its words.
    const blamedHay = found !== null && found.lineNumber < hay.failureFirstLine;
    const reason = blamedHay
      ? `blamed a healthy line ${found.lineNumber}: ${found.line.slice(0, 160)}`
      : score.reason;
    return {
      name: c.name,
      healthy: score.healthy !== null,
      rootCause: score.rootCause && !blamedHay,
      category: score.category,
      gotCategory: categoryOf(diagnosis),
      expectedCategory: c.label.category ?? null,
      allClear: diagnosis.verdict === 'no-failure',
      reason,
    };
  });
}

/** The haystack alone, all its logs in a row: a failure found there is a healthy log blamed. */
export function evaluateHaystack(haystack: readonly LabelledCase[], boundary: Boundary): CaseResult {
  const hay = buildHaystack(haystack.map(toLog), null, boundary);
  const found = diagnose(hay.text).rootCause;
  return {
    name: `all ${haystack.length} healthy logs in a row`,
    healthy: true,
    rootCause: found === null,
    category: found === null,
    gotCategory: null,
    expectedCategory: null,
    allClear: found === null,
    reason:
      found === null
        ? 'no failure, as labelled'
        : `blamed line ${found.lineNumber}: ${found.line.slice(0, 160)}`,
  };
}

function toLog(c: LabelledCase): LabelledLog {
  return { name: c.name, engine: c.label.engine ?? null, text: c.text };
}
