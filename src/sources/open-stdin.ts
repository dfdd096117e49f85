import { fstatSync, readSync, statSync, type Stats } from 'node:fs';
import { isatty } from 'node:tty';
import { SourceError } from '../errors.js';
import { describeReadError } from './describe-read-error.js';
import { prepend, type LogInput } from './log-input.js';
import { SNIFF_BYTES, sniffInput } from './sniff-input.js';
import type { SourceIo } from './types.js';

/**
 * stdin as an input. The first bytes are read at open time to tell what it is (sniff-input.ts); they
 * stay at the front of the body. Where stdin is the process's own (`stdinFd`, the CLI's), a pipe or a file
 * is read synchronously from the descriptor, like a file, and the stream (`io.stdin`) is never made.
 */
export async function openStdin(io: Pick<SourceIo, 'stdin' | 'stdinFd'>): Promise<LogInput> {
  const fd = io.stdinFd;
  const stats = fd === undefined ? null : readsDirectly(fd);
  if (fd !== undefined && stats !== null) return openStdinFd(fd, stats.isFile());
  return openStdinStream(io.stdin);
}

/**
 * Descriptor `fd`'s stats when it may be read synchronously: anything but a terminal, which the stream
 * handles (null).
 */
function readsDirectly(fd: number): Stats | null {
  let stats: Stats;
  try {
    stats = fstatSync(fd);
  } catch (error) {
    throw stdinFailed(error);
  }
  if (isatty(fd)) return null;
  // `vigil diagnose - < /dev/zero` would read forever, a disk for hours: as for a path (describe-read-error.ts).
  // A socket is let through here: a supervisor may hand a log over one, and it ends.
  if (stats.isBlockDevice() || (stats.isCharacterDevice() && !isDevNull(stats))) {
    throw new SourceError('cannot read stdin: it is a device, not a log file');
  }
  return stats;
}

/** stdin is /dev/null (`< /dev/null`, a service's default): it ends at once and is reported as empty. */
function isDevNull(stats: Stats): boolean {
  try {
    return statSync('/dev/null').rdev === stats.rdev;
  } catch {
    return false;
  }
}

/**
 * stdin read with `readSync` on its descriptor (`sized`: it is a regular file): a pipe's bytes go straight into the caller's buffer, in the
 * reading thread, without a stream between. Reads wait for data (a blocking descriptor does; one another
 * program left non-blocking is retried), so this is used only for the process's own stdin.
 */
function openStdinFd(fd: number, sized: boolean): LogInput {
  const head = Buffer.allocUnsafe(SNIFF_BYTES);
  let filled = 0;
  let ended = false;
  try {
    while (filled < head.length) {
      const count = readStdin(fd, head.subarray(filled));
      if (count === 0) {
        ended = true;
        break;
      }
      filled += count;
    }
  } catch (error) {
    throw stdinFailed(error);
  }
  const first = head.subarray(0, filled);
  let pending: Uint8Array | null = first.length > 0 ? first : null;
  const read = (target: Uint8Array): number => {
    if (pending === null) return ended ? 0 : readOrEnd(fd, target, () => (ended = true));
    const count = Math.min(pending.length, target.length);
    target.set(pending.subarray(0, count));
    pending = count < pending.length ? pending.subarray(count) : null;
    return count;
  };
  const kind = sniffInput(first, ended);
  const plain = kind.kind === 'text';
  return {
    label: 'stdin',
    head: first,
    complete: ended,
    // `< server.log` ends, whatever its size: only a pipe is capped.
    sized,
    kind,
    body: prepend(
      first,
      readChunks(
        fd,
        () => ended,
        () => (ended = true),
      ),
    ),
    // The caller owns stdin: it stays open.
    close: () => Promise.resolve(),
    ...(plain ? { readSync: read } : {}),
  };
}

function readOrEnd(fd: number, target: Uint8Array, end: () => void): number {
  const count = readStdin(fd, target);
  if (count === 0) end();
  return count;
}

/** The rest of stdin as chunks of up to 1 MiB, each filled by as many pipe reads as it takes. */
function* readChunks(fd: number, ended: () => boolean, end: () => void): Generator<Uint8Array> {
  while (!ended()) {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let filled = 0;
    try {
      while (filled < chunk.length && !ended()) filled += readOrEnd(fd, chunk.subarray(filled), end);
    } catch (error) {
      throw stdinFailed(error);
    }
    if (filled > 0) yield chunk.subarray(0, filled);
  }
}

const CHUNK_BYTES = 1 << 20;
const pause = new Int32Array(new SharedArrayBuffer(4));

/** One read of stdin, waiting while a non-blocking descriptor has nothing yet; 0 at its end. Throws the
 * system's error as it is. */
function readStdin(fd: number, target: Uint8Array): number {
  for (let wait = 0.05; ; wait = Math.min(wait * 2, 20)) {
    try {
      return readSync(fd, target, 0, target.length, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EAGAIN' && code !== 'EINTR') throw error;
      // Node has no poll() to call: sleep a little, longer the longer stdin stays empty.
      if (code === 'EAGAIN') Atomics.wait(pause, 0, 0, wait);
    }
  }
}

function stdinFailed(error: unknown): SourceError {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === 'EBADF'
      ? 'it is closed; pipe a log into vigil diagnose -, or give the log file'
      : describeReadError(error);
  return new SourceError(`cannot read stdin: ${why}`, { cause: error });
}

/** stdin as a stream (a terminal, or a stream given in place of the process's stdin). */
async function openStdinStream(stdin: NodeJS.ReadableStream): Promise<LogInput> {
  const iterator = (stdin as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]();
  const pulled: Buffer[] = [];
  let size = 0;
  let done = false;
  try {
    while (size < SNIFF_BYTES) {
      const step = await iterator.next();
      if (step.done === true) {
        done = true;
        break;
      }
      const chunk = toBuffer(step.value);
      pulled.push(chunk);
      size += chunk.length;
    }
  } catch (error) {
    throw new SourceError(`cannot read stdin: ${describeReadError(error)}`, { cause: error });
  }
  async function* rest(): AsyncGenerator<Uint8Array> {
    if (done) return;
    try {
      for (let step = await iterator.next(); step.done !== true; step = await iterator.next()) {
        yield toBuffer(step.value);
      }
    } catch (error) {
      throw new SourceError(`cannot read stdin: ${describeReadError(error)}`, { cause: error });
    }
  }
  const head = Buffer.concat(pulled);
  return {
    label: 'stdin',
    head,
    complete: done,
    kind: sniffInput(head, done),
    body: prepend(Buffer.concat(pulled), rest()),
    // The caller owns stdin: ending our iterator would destroy it, so leave it as it is.
    close: () => Promise.resolve(),
  };
}

function toBuffer(chunk: Buffer | string): Buffer {
  return typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
}
