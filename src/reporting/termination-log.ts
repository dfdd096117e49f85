/**
 * The summary Kubernetes shows in `kubectl describe pod` from a container's termination message file
 * (`/dev/termination-log`). The kubelet reads at most 4096 bytes, so the text is cut to fit, never in the
 * middle of a character. Pure: `check --termination-log` and `run --termination-log` write what it returns.
 */

/** The kubelet's limit for one container's termination message. */
export const TERMINATION_LOG_LIMIT = 4096;

export interface TerminationEntry {
  /** The check or signature id of the first error. */
  id: string;
  message: string;
  fix?: string;
}

export function renderTerminationLog(entry: TerminationEntry): string {
  const lines = [`${entry.id}: ${entry.message.trim()}`];
  const fix = entry.fix?.trim();
  if (fix) lines.push(`fix: ${fix}`);
  return cutToBytes(`${lines.join('\n')}\n`, TERMINATION_LOG_LIMIT);
}

/** The longest prefix of `text` whose UTF-8 encoding fits in `limit` bytes. */
function cutToBytes(text: string, limit: number): string {
  if (Buffer.byteLength(text, 'utf8') <= limit) return text;
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char, 'utf8');
    if (bytes + size > limit) break;
    bytes += size;
    end += char.length;
  }
  return text.slice(0, end);
}
