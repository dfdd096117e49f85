import { lastSegment } from '../parsing/traceback.js';
import type { Candidate } from './candidate.js';
import { HUB_ERRORS } from './classify/categories.js';

/** The request's own failure: its HTTP status, or the network it could not reach. */
const REQUEST_FAILURE =
  /(?:^|\.)(?:HTTPError|HTTPStatusError|ConnectionError|NewConnectionError|MaxRetryError|ConnectTimeout|ReadTimeout|ConnectError|OSError|gaierror)$/;

/**
 * The first failure of the request a huggingface_hub error was raised from, where the chain shows it
 * (`[Errno 101] Network is unreachable` under `LocalEntryNotFoundError`, httpx's `403 Forbidden` under
 * `GatedRepoError`): what the hub makes of it says less than the status or the network that failed. Null
 * where the chosen error is no hub error, or its chain shows no such failure.
 */
export function findHubRequestFailure(
  failure: Candidate,
  candidates: readonly Candidate[],
): Candidate | null {
  if (failure.exception === null || !HUB_ERRORS.test(lastSegment(failure.exception))) return null;
  return (
    candidates.find(
      (c) =>
        c.line.n < failure.line.n &&
        c.exception !== null &&
        REQUEST_FAILURE.test(c.exception) &&
        c.ledTo?.includes(failure) === true,
    ) ?? null
  );
}
