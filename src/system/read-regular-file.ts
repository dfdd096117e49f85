import { isUtf8 } from 'node:buffer';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** What reading a file gave: its text, nothing there, or why it was not read. */
export type FileReading =
  | { kind: 'text'; text: string; notUtf8?: NotUtf8 }
  | { kind: 'missing' }
  | { kind: 'unreadable'; reason: string };

/** Where a file that should be UTF-8 first is not: the byte and its line (from 1). */
export interface NotUtf8 {
  byte: number;
  line: number;
}

// One buffer reused by every read of a small file (metadata files come by the thousand): only the bytes
// read are decoded, so what an earlier file left in it is never seen. Bigger files get their own.
const SCRATCH_BYTES = 256 * 1024;
let scratch: Buffer | null = null;

/**
 * Where the text up to and with the first blank line (LF LF, or LF CR LF) ends, or `length`. A metadata
 * file's long description after its headers is read (the cap still holds) but never decoded or kept.
 */
function endOfHeader(buffer: Buffer, length: number): number {
  const read = buffer.subarray(0, length);
  const lf = read.indexOf('\n\n');
  const crlf = read.indexOf('\n\r\n');
  const blank = [lf === -1 ? Infinity : lf + 2, crlf === -1 ? Infinity : crlf + 3];
  return Math.min(length, ...blank);
}

/**
 * Reads a file only when it is a regular file of at most `maxBytes`: a symlink to /dev/zero, a FIFO (whose
 * open would block) or a device is refused, not read forever. Opened non-blocking, checked on the open
 * descriptor (no race between a check and the read), then read up to the cap. With `upToBlankLine`, the
 * text stops after the first blank line (RFC 822 headers: METADATA, PKG-INFO).
 */
export function readRegularFile(
  path: string,
  maxBytes: number,
  options: { upToBlankLine?: boolean; checkUtf8?: boolean } = {},
): FileReading {
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
    const wanted = Math.min(info.size, maxBytes) + 1;
    const buffer =
      wanted <= SCRATCH_BYTES ? (scratch ??= Buffer.allocUnsafe(SCRATCH_BYTES)) : Buffer.allocUnsafe(wanted);
    let length = 0;
    for (let n = -1; n !== 0 && length < wanted; length += n) {
      n = readSync(fd, buffer, length, wanted - length, null);
      // A read that stops short at the size fstat gave is the end of the file: no empty read to confirm it.
      if (n < wanted - length && length + n === info.size) {
        length += n;
        break;
      }
    }
    if (length > maxBytes)
      return { kind: 'unreadable', reason: `grew over the ${maxBytes}-byte limit while read` };
    const end = options.upToBlankLine === true ? endOfHeader(buffer, length) : length;
    const text = buffer.toString('utf8', 0, end);
    const whole = buffer.subarray(0, length);
    // The whole file, not only the part decoded: Python's read_text(encoding='utf-8') fails on any byte.
    if (options.checkUtf8 === true && !isUtf8(whole))
      return { kind: 'text', text, notUtf8: findNotUtf8(whole) };
    return { kind: 'text', text };
  } catch (error) {
    return {
      kind: 'unreadable',
      reason: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    };
  } finally {
    closeSync(fd);
  }
}

/** The first line that is not valid UTF-8 (a newline is never inside a character) and its first bad byte. */
function findNotUtf8(bytes: Buffer): NotUtf8 {
  let line = 1;
  for (let start = 0; start < bytes.length; line += 1) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline === -1 ? bytes.length : newline;
    const text = bytes.subarray(start, end);
    if (!isUtf8(text)) {
      const decoded = text.toString('utf8');
      const at = Buffer.byteLength(decoded.slice(0, Math.max(0, decoded.indexOf('\uFFFD'))));
      return { byte: text[at] ?? 0, line };
    }
    start = end + 1;
  }
  return { byte: 0, line };
}
