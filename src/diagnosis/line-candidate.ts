import type { ParsedLine } from '../parsing/parsed-line.js';
import type { Attempt } from './attempt.js';
import type { Candidate } from './candidate.js';
import { completeDraft } from './collect-candidates.js';

/**
 * A line that is all a start's log says of how it ended (its exit words, its last error, the stop after a
 * stall), made a candidate of that start where no grammar drafted one. `key` keeps it apart from the
 * groups of drafted candidates. Pure.
 */
export function lineCandidate(
  attempt: Attempt,
  line: ParsedLine,
  how: {
    kind: 'failure-line' | 'error-line';
    message: string;
    key: string;
    context?: string[];
    work?: number;
  },
): Candidate {
  const draft = {
    kind: how.kind,
    exception: null,
    message: how.message,
    line,
    frames: [],
    detail: [],
    strength: 0,
    fatal: true,
    wrapper: false,
  };
  return completeDraft(
    draft,
    attempt.index,
    false,
    how.context ?? [],
    attempt.chatter,
    how.key,
    how.work ?? attempt.work,
  );
}
