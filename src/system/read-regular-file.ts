import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** What reading a file gave: its text, nothing there, or why it was not read. */
export type FileReading =
  { kind: 'text'; text: string } | { kind: 'missing' } | { kind: 'unreadable'; reason: string };

/**
 * Reads a file only when it is a regular file of at most `maxBytes`: a symlink to /dev/zero, a FIFO (whose
 * open would block) or a device is refused, not read forever. Opened non-blocking, checked on the open
 * descriptor (no race between a check and the read), then read up to the cap.
 */
export function readRegularFile(path: string, maxBytes: number): FileReading {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'unreadable', reason: `cannot be read (${code})` };
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile())
      return { kind: 'unreadable', reason: 'is not a regular file (a device, FIFO or socket)' };
    if (info.size > maxBytes) {
      return { kind: 'unreadable', reason: `is ${info.size} bytes, over the ${maxBytes}-byte limit` };
    }
    // The size can change under us: read at most the cap, plus one byte to tell a file that grew.
    const buffer = Buffer.alloc(Math.min(info.size, maxBytes) + 1);
    let length = 0;
    for (let n = -1; n !== 0 && length < buffer.length; length += n) {
      n = readSync(fd, buffer, length, buffer.length - length, null);
    }
    if (length > maxBytes)
      return { kind: 'unreadable', reason: `grew over the ${maxBytes}-byte limit while read` };
    return { kind: 'text', text: buffer.toString('utf8', 0, length) };
  } catch (error) {
    return {
      kind: 'unreadable',
      reason: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    };
  } finally {
    closeSync(fd);
  }
}
