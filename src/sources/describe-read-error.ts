import type { Stats } from 'node:fs';
import { SourceError } from '../errors.js';

const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a folder, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'a part of the path is not a folder',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the name is too long',
  EIO: 'input/output error',
  ENOTLOG: 'it is a device, not a log file',
};

/** A file-system error as the few words after "cannot read PATH: ", never a stack trace. */
export function describeReadError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code !== undefined && REASONS[code] !== undefined) return REASONS[code];
  if (error instanceof Error) return error.message.split('\n')[0] ?? code ?? 'unknown error';
  return String(error);
}

/** The error to throw when `label` cannot be read: one line, with the cause kept. */
export function readFailed(label: string, error: unknown): SourceError {
  return new SourceError(`cannot read ${label}: ${describeReadError(error)}`, { cause: error });
}

/**
 * A character or block device, or a socket: nothing a log is kept in (/dev/zero would be read forever, a disk
 * for hours). /dev/null is let through: it ends at once, and is reported as empty.
 */
export function isDevice(
  path: string,
  stats: Pick<Stats, 'isCharacterDevice' | 'isBlockDevice' | 'isSocket'>,
): boolean {
  if (path === '/dev/null') return false;
  return stats.isCharacterDevice() || stats.isBlockDevice() || stats.isSocket();
}
