import { searchUrl } from '../diagnosis/classify/classify-cause.js';
import type { Diagnosis, EvidenceLine } from '../types/diagnosis.js';
import { redactLines, redactText } from './redact-text.js';

/** Every string in a JSON-shaped value, redacted; numbers, booleans, nulls and the shape are kept. */
function redactDeep(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map(redactDeep);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactDeep(item)]));
  }
  return value;
}

/**
 * A copy of the diagnosis with secrets redacted in every string field (messages, raw lines, evidence,
 * groups, signature text, warnings), including fields added after this was written.
 */
export function redactDiagnosis(diagnosis: Diagnosis): Diagnosis {
  // redactDeep keeps the shape and only rewrites strings, so the result is still a Diagnosis.
  const redacted = { ...(redactDeep(diagnosis) as Diagnosis), evidence: redactEvidence(diagnosis.evidence) };
  // The search link spells the message URL-encoded, where no token pattern sees it: spell it again from
  // the redacted message.
  const rc = redacted.rootCause;
  if (redacted.general && rc) {
    redacted.general = {
      ...redacted.general,
      searchUrl: searchUrl(rc.exception?.split('.').pop() ?? '', rc.message),
    };
  }
  return redacted;
}

/** Evidence lines redacted run by run: a token cut between two neighbouring lines of the log is seen. */
function redactEvidence(evidence: readonly EvidenceLine[]): EvidenceLine[] {
  const out: EvidenceLine[] = [];
  let run: EvidenceLine[] = [];
  const flush = (): void => {
    const texts = redactLines(run.map((line) => line.text));
    run.forEach((line, i) => out.push({ ...line, text: texts[i] ?? '' }));
    run = [];
  };
  for (const line of evidence) {
    const last = run.at(-1);
    if (last !== undefined && line.lineNumber !== last.lineNumber + 1) flush();
    run.push(line);
  }
  flush();
  return out;
}
