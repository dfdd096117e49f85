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
  return (
    text
      .slice(0, 500)
      .replace(/0x[0-9a-f]+/gi, 'H')
      // Request, trace and cursor ids.
      .replace(/\b[\w-]*?[0-9a-f]{12,}\b/gi, 'I')
      .replace(/(?:\/[\w.@+-]+)+\/?/g, 'P')
      .replace(/\b(?:rank|pid|tp|dp|gpu|device|cuda:)\s*[=:]?\s*\d+/gi, 'R')
      .replace(/\d+(?:\.\d+)?/g, 'N')
      .replace(/\s+/g, ' ')
      .trim()
  );
}
