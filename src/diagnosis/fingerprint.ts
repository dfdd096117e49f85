import type { Frame } from '../parsing/traceback.js';

/**
 * What makes two failures the same across processes: the exception's type, its message with the
 * numbers, addresses, pids and paths that differ per process masked, and where it was raised.
 */
export function fingerprintFailure(
  exception: string | null,
  message: string,
  frames: readonly Frame[],
): string {
  const type = exception === null ? '' : exception.slice(exception.lastIndexOf('.') + 1);
  const raisedIn = frames.at(-1)?.function ?? '';
  const first = message.split('\n', 1)[0] ?? '';
  return `${type}|${maskVariable(first)}|${raisedIn}`;
}

export function maskVariable(text: string): string {
  let masked = text.slice(0, 500);
  // Each pass only where it can match: this runs on every failure line of a long log.
  if (/0x[0-9a-f]/i.test(masked)) masked = masked.replace(/0x[0-9a-f]+/gi, 'H');
  // Request, trace and cursor ids.
  if (/[0-9a-f]{12}/i.test(masked)) masked = masked.replace(/\b[\w-]*?[0-9a-f]{12,}\b/gi, 'I');
  if (masked.includes('/')) masked = masked.replace(/(?:\/[\w.@+-]+)+\/?/g, 'P');
  masked = masked
    .replace(/\b(?:rank|pid|tp|dp|gpu|device|cuda:)\s*[=:]?\s*\d+/gi, 'R')
    .replace(/\d+(?:\.\d+)?/g, 'N');
  // A lone space stays as it is: replacing every one of them was a quarter of the masking of a request
  // error's line (3 of 11 µs).
  if (/\s\s|[^\S ]/.test(masked)) masked = masked.replace(/\s+/g, ' ');
  return masked.trim();
}
