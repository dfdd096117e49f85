/**
 * What the waiting side raises when what it waits on is gone or stuck: a request's timeout, a refused or
 * dropped connection (SGLang's warm-up request to its own port, a client of a dead engine). After an
 * earlier failure of its own these are that failure's echo, however long their chain.
 */
const WAITING =
  /(?:^|\.)(?:TimeoutError|timeout|ReadTimeout\w*|ConnectTimeout\w*|TimeoutException|ConnectionError|ConnectionRefusedError|RemoteDisconnected|ProtocolError|MaxRetryError)$/;

export function isWaitingError(exception: string | null): boolean {
  return exception !== null && WAITING.test(exception);
}
