/**
 * What the waiting side raises when what it waits on is gone or stuck: a request's timeout, a refused or
 * dropped connection (SGLang's warm-up request to its own port, a client of a dead engine). After an
 * earlier failure of its own these are that failure's echo, however long their chain.
 */
const WAITING =
  /(?:^|\.)(?:TimeoutError|timeout|ReadTimeout\w*|ConnectTimeout\w*|TimeoutException|ConnectionError|ConnectionRefusedError|RemoteDisconnected|ProtocolError|MaxRetryError)$/;

/** A waiting side's own words for giving up, whatever class it raised them with (a test harness's RuntimeError). */
const GAVE_UP =
  /\bfailed to start (?:in|within|after)\b|\bwithin the timeout\b|\btimed out waiting\b|\bfailed to wait for\b|\b(?:not|never) (?:all \w+ )?(?:became |are |is )?ready (?:after|within|in) \d/i;

export function isWaitingError(exception: string | null, message = ''): boolean {
  return exception !== null && (WAITING.test(exception) || GAVE_UP.test(message));
}
