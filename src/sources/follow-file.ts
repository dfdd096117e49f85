import { open, stat, type FileHandle } from 'node:fs/promises';
import { SourceError } from '../errors.js';

export interface FollowFileOptions {
  /** How often to look for new bytes, a rotation or a truncation (default 250 ms). */
  pollMs?: number;
  /** Of a file that already holds a log, read this many last bytes first (default 1 MiB). */
  backlogBytes?: number;
  /** Whole lines, each with where it starts in the file: `file` is the inode, stable across a reopen. */
  onLine(line: string, at: { file: string; offset: number }): void;
  /** The file was replaced (rotated) or cut short (truncated) and is read again from its start. */
  onReopen?(reason: 'rotated' | 'truncated'): void;
  /** The backlog is read: lines from here on are new. */
  onCaughtUp?(): void;
  /** A problem that does not end the follow (the file is missing for a while). */
  onWarning?(text: string): void;
}

export interface FileFollower {
  ended: Promise<void>;
  stop(): void;
}

/**
 * A poll's read: a server writing 5,000 lines a second adds about 200 KB between two polls, read at once
 * (each read is a trip through libuv's thread pool: at 64 KiB a poll took five, the last one empty).
 */
const CHUNK = 256 * 1024;
/** A line longer than this is cut: a runaway line must not grow the buffer without bound. */
const MAX_LINE = 1024 * 1024;

/**
 * `tail -F` for a server's log file: follows it by name, reopened when logrotate moves it away or a
 * restart script truncates it (`> server.log`), the rest of the old file read first. Unlike `tail -F`,
 * each line comes with its byte offset, so a start in the file has a name that a watcher run again
 * finds again. The file must exist when the follow begins (a typo is a usage error, not a wait).
 */
export async function followFile(path: string, options: FollowFileOptions): Promise<FileFollower> {
  const pollMs = options.pollMs ?? 250;
  let handle = await open(path, 'r').catch((error: unknown) => {
    throw new SourceError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, {
      cause: error,
    });
  });
  let info = await handle.stat();
  let offset = Math.max(0, info.size - (options.backlogBytes ?? 1024 * 1024));
  let pending: Buffer[] = [];
  let pendingAt = offset;
  let skipPartial = offset > 0;
  let stopped = false;
  let wake: (() => void) | null = null;
  const buffer = Buffer.alloc(CHUNK);

  /** The line in `bytes[start, end)`, its first MAX_LINE bytes decoded, without the CR of a CRLF. */
  function emit(bytes: Buffer, start: number, end: number, at: number): void {
    const stop = Math.min(end, start + MAX_LINE);
    let text = bytes.toString('utf8', start, stop);
    // A CR the cut left at the end is dropped too, as before: the text ends where the line was cut.
    if (text.endsWith('\r')) text = text.slice(0, -1);
    options.onLine(text, { file: String(info.ino), offset: at });
  }

  /**
   * Reads what the file holds past `offset`. `toEnd`: until a read finds nothing more; otherwise (a poll)
   * a read that fills less than the buffer found the end, and what is written after it waits for the
   * next poll.
   */
  async function drain(from: FileHandle, toEnd: boolean): Promise<void> {
    for (;;) {
      const { bytesRead } = await from.read(buffer, 0, CHUNK, offset);
      if (bytesRead === 0) return;
      const chunk = buffer.subarray(0, bytesRead);
      let start = 0;
      for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
        const at = pendingAt;
        const held = pending;
        pending = [];
        pendingAt = offset + end + 1;
        // A backlog read from the middle of the file starts with the tail of a line: not a line.
        if (skipPartial) skipPartial = false;
        // A line within this chunk is decoded where it lies, before the next read reuses the buffer: no
        // copy of its bytes (one per line of a chatty server's log).
        else if (held.length === 0) emit(chunk, start, end, at);
        else {
          const line = Buffer.concat([...held, chunk.subarray(start, end)]);
          emit(line, 0, line.length, at);
        }
        start = end + 1;
      }
      if (start < chunk.length && pending.reduce((sum, part) => sum + part.length, 0) < MAX_LINE)
        pending.push(Buffer.from(chunk.subarray(start)));
      offset += bytesRead;
      if (!toEnd && bytesRead < CHUNK) return;
    }
  }

  async function reopen(reason: 'rotated' | 'truncated'): Promise<void> {
    if (reason === 'rotated') {
      await drain(handle, true);
      await handle.close();
      handle = await open(path, 'r');
      info = await handle.stat();
    }
    offset = 0;
    pending = [];
    pendingAt = 0;
    skipPartial = false;
    options.onReopen?.(reason);
  }

  async function check(): Promise<void> {
    const named = await stat(path).catch(() => null);
    if (named !== null && named.ino !== info.ino) {
      await reopen('rotated');
      return;
    }
    const now = await handle.stat();
    if (now.size < offset) await reopen('truncated');
  }

  await drain(handle, true);
  options.onCaughtUp?.();
  let warned = false;
  const ended = (async () => {
    while (!stopped) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (stopped) break;
      try {
        await check();
        await drain(handle, false);
        warned = false;
      } catch (error) {
        // Between a rotation's rename and the new file's creation the name points nowhere: try again.
        if (!warned) options.onWarning?.(`cannot read ${path} now: ${String(error)}`);
        warned = true;
      }
    }
    await handle.close().catch(() => undefined);
  })();
  return {
    ended,
    stop() {
      stopped = true;
      wake?.();
    },
  };
}
