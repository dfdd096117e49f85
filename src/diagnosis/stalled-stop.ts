import type { Attempt } from './attempt.js';
import type { Candidate } from './candidate.js';
import { formatDuration } from '../progress/format-progress.js';
import { lineCandidate } from './line-candidate.js';

/** Silence before a stop past which the start had stalled: longer than any step that logs nothing. */
export const STALL_MS = 60_000;

/**
 * The last start, when it was stopped before it became ready after a long silence (SGLang waiting at
 * `Init torch distributed begin.` for two minutes, then `Received 15 death signal` from torchrun): the stop
 * is how a supervisor's or a harness's start timeout shows, and the silence before it where the start
 * hung. No all-clear: the stop is the finding, the last line before it where to look.
 */
export function findStalledThenStopped(
  attempts: readonly Attempt[],
): { attempt: Attempt; candidates: Candidate[]; warning: string } | null {
  const attempt = attempts.at(-1);
  const mark = attempt?.stopBeforeReady ?? null;
  // Only a start the log shows beginning (its banner): a window cut from a server's life shows no start, and
  // its serving before the stop (requests answered with no ready line in the window) was no stall.
  if (attempt === undefined || mark === null || attempt.readyLine !== null || !attempt.server) return null;
  if (mark.silentMs === null || mark.silentMs < STALL_MS || mark.lastBefore === null) return null;
  const candidate = lineCandidate(attempt, mark.line, {
    kind: 'failure-line',
    message: mark.line.text.trim(),
    key: `stall:${mark.line.n}`,
  });
  const warning = `the start was stopped before it became ready, ${formatDuration(mark.silentMs)} after its last line: ${mark.lastBefore.trim()}`;
  return { attempt, candidates: [candidate], warning };
}
