import type { Attempt } from './attempt.js';
import type { Candidate } from './candidate.js';

/**
 * What a client asked wrongly, or gave up on: the server answered it (a 4xx) or was left by it, and is
 * well. vLLM's API server logs a prompt over the context length as `Exception in ASGI application` with its
 * traceback, and answers `400 Bad Request`.
 */
const CLIENT_FAULT_CLASS =
  /(?:Validation\w*|BadRequest\w*|HTTPException|NotFound\w*|Cancelled\w*|Disconnect\w*|ClosedResource\w*|EndOfStream|BrokenPipe\w*|ConnectionReset\w*|Timeout\w*)$/;
const CLIENT_FAULT_WORDS =
  /maximum context length|reduce the length|too (?:long|large|many)|client disconnected|is not a valid|must be|should be|not found|not supported/i;

/** A request's own failure the server's code did not handle: the client got a 500, the server ran on. */
function isServerFault(c: Candidate): boolean {
  if (c.kind !== 'exception' || c.phase !== 'request' || !c.afterReady || c.exception === null) return false;
  // A wrapper (anyio's exception group) holds the request's own exception, weighed by itself.
  if (c.wrapper) return false;
  // One the server's own logger wrote, level and all, was caught in its handler and answered (vLLM's
  // `Error in preprocessing prompt inputs`, then a 400): only an exception no handler caught is a 500.
  if (c.line.level !== null) return false;
  return !CLIENT_FAULT_CLASS.test(c.exception) && !CLIENT_FAULT_WORDS.test(c.message);
}

/**
 * The last start, when it became ready and nothing ended it but its requests fail in its own code (an
 * unhandled exception in a request handler, answered with a 500): no crash, yet no all-clear either.
 * What a client did wrong (a prompt too long, a closed connection) is the client's.
 */
export function findFailedRequests(
  attempts: readonly Attempt[],
): { attempt: Attempt; candidates: Candidate[]; warning: string } | null {
  const attempt = attempts.at(-1);
  if (attempt === undefined || attempt.readyLine === null) return null;
  const stop = attempt.stopLine ?? Infinity;
  const failed = attempt.candidates.filter((c) => isServerFault(c) && c.line.n < stop);
  if (failed.length === 0) return null;
  const warning = `the server stayed up: ${failed.length === 1 ? 'a request' : `${failed.length} kinds of request`} failed in its own code (an unhandled exception, answered with a 500), not a crash`;
  return { attempt, candidates: failed, warning };
}
