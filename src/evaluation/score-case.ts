import type { Diagnosis } from '../types/diagnosis.js';

/** A labelled case, as ../shared/corpus/README.md defines it. */
export interface CaseLabel {
  category?: string;
  engine?: string;
  root_cause?: { exception: string | null; message_contains: string; process?: string | null } | null;
}

export interface CaseScore {
  rootCause: boolean;
  category: boolean;
  /** For a healthy log (no root_cause in the label): no failure was reported. */
  healthy: boolean | null;
  reason: string;
}

const collapse = (text: string): string => text.replace(/\s+/g, ' ');
const lastSegment = (type: string): string => type.slice(type.lastIndexOf('.') + 1);

/** The category a diagnosis gives: its signature's, else the general classifier's. */
export function categoryOf(diagnosis: Diagnosis): string | null {
  return diagnosis.signature?.category ?? diagnosis.general?.category ?? null;
}

/** Scores one diagnosis against its label by the corpus rule. Pure. */
export function scoreCase(diagnosis: Diagnosis, label: CaseLabel): CaseScore {
  const expected = label.root_cause;
  if (!expected) {
    const healthy = diagnosis.rootCause === null;
    return {
      rootCause: healthy,
      category: healthy,
      healthy,
      reason: healthy ? 'no failure, as labelled' : `blamed: ${diagnosis.rootCause?.line ?? ''}`,
    };
  }
  const found = diagnosis.rootCause;
  const category = categoryOf(diagnosis) === label.category;
  if (found === null) return { rootCause: false, category, healthy: null, reason: 'no root cause reported' };
  const needle = collapse(expected.message_contains);
  const text = collapse(`${found.exception ?? ''}: ${found.message}`);
  const textMatch = text.includes(needle) || collapse(found.line).includes(needle);
  const typeMatch =
    expected.exception === null ||
    (found.exception !== null && lastSegment(found.exception) === lastSegment(expected.exception));
  const rootCause = textMatch && typeMatch;
  const reason = rootCause
    ? 'ok'
    : `${textMatch ? '' : 'message'}${!textMatch && !typeMatch ? ' and ' : ''}${typeMatch ? '' : 'exception'} differ: got ${found.exception ?? 'null'}: ${found.message.slice(0, 160)}`;
  return { rootCause, category, healthy: null, reason };
}
