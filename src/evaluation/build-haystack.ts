/** A log that a labelled failure sits in, as an operator's whole journal or `docker logs` shows it. */
export interface LabelledLog {
  name: string;
  engine: string | null;
  text: string;
}

/** What separates one run from the next: nothing, or systemd's own lines for a restart of the unit. */
export type Boundary = 'none' | 'systemd';
export const BOUNDARIES: readonly Boundary[] = ['none', 'systemd'];

export interface Haystack {
  text: string;
  /** The first line (1-based) of the failure's own log; everything before it is healthy. */
  failureFirstLine: number;
}

/** systemd's plain-text journal lines for a stop and a new start of the unit, as `journalctl -u` prints them. */
const SYSTEMD_RESTART = [
  'Dec 01 12:00:00 gpu-host systemd[1]: Stopping inference.service - LLM inference server...',
  'Dec 01 12:00:04 gpu-host systemd[1]: inference.service: Deactivated successfully.',
  'Dec 01 12:00:04 gpu-host systemd[1]: Stopped inference.service - LLM inference server.',
  'Dec 01 12:00:04 gpu-host systemd[1]: Started inference.service - LLM inference server.',
];

/** Healthy logs in the order they come before a failure of `engine`: that engine's first, then by name. */
export function orderHealthy(healthy: readonly LabelledLog[], engine: string | null): LabelledLog[] {
  const own = (log: LabelledLog): number => (engine !== null && log.engine === engine ? 0 : 1);
  return [...healthy].sort((a, b) => own(a) - own(b) || a.name.localeCompare(b.name));
}

/**
 * The failure placed after all the healthy logs, with `boundary` between every two runs. Pure: the
 * haystack is built from the logs given, nothing is read.
 */
export function buildHaystack(
  healthy: readonly LabelledLog[],
  failure: LabelledLog | null,
  boundary: Boundary,
): Haystack {
  const parts = orderHealthy(healthy, failure?.engine ?? null).map((log) => log.text);
  const between = boundary === 'systemd' ? SYSTEMD_RESTART : [];
  const lines: string[] = [];
  for (const [i, text] of parts.entries()) {
    if (i > 0) lines.push(...between);
    lines.push(...splitLog(text));
  }
  if (failure === null) return { text: joinLines(lines), failureFirstLine: lines.length + 1 };
  if (lines.length > 0) lines.push(...between);
  const failureFirstLine = lines.length + 1;
  lines.push(...splitLog(failure.text));
  return { text: joinLines(lines), failureFirstLine };
}

function splitLog(text: string): string[] {
  // Lone CRs break lines for the diagnosis too: the line numbers must agree with its.
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

const joinLines = (lines: readonly string[]): string => (lines.length === 0 ? '' : `${lines.join('\n')}\n`);
