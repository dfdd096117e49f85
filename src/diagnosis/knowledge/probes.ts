/**
 * A request a monitor or an orchestrator sends to see that the server answers (Prometheus's scrape, a
 * liveness or readiness probe, a model list), as an access log shows it: the API server answers these
 * while its engine is dead or hung, so they show no work of the engine's.
 */
const PROBE_REQUEST =
  /"GET \/(?:metrics|health\w*|ping|readyz|livez|v1\/models|version)\/?(?:\?[^"\s]*)? HTTP\//;

export const isProbeRequest = (line: string): boolean => PROBE_REQUEST.test(line);

const LF = 0x0a;
/** Every probe's access line holds this where its request begins. */
const REQUEST_OPEN = '"GET /';

/** How many lines of `bytes[from, to)` (whole lines) are probes answered. */
export function countProbes(bytes: Buffer, from: number, to: number): number {
  let count = 0;
  let at = bytes.indexOf(REQUEST_OPEN, from);
  while (at !== -1 && at < to) {
    const start = bytes.lastIndexOf(LF, at) + 1;
    const end = bytes.indexOf(LF, at);
    const lineEnd = end === -1 || end > to ? to : end;
    if (isProbeRequest(bytes.toString('latin1', Math.max(start, from), lineEnd))) count++;
    at = bytes.indexOf(REQUEST_OPEN, lineEnd + 1);
  }
  return count;
}
