import { SourceError } from '../errors.js';
import type { LogInput } from './log-input.js';

const NEWLINE = 0x0a;

export interface InputBounds {
  /** Bytes read at most: past them the input ends as if it had, and `onCut` is called once. */
  capBytes: number;
  /** Bytes without a line break: past them the input is no log, and reading throws. */
  lineBreakBytes: number;
  onCut: () => void;
}

/**
 * An input with no size of its own (stdin, a pipe) read within bounds: `yes | vigil diagnose -` would
 * otherwise read forever. Past `capBytes` the input ends as if it had, and `onCut` says so once (the caller
 * decides what a cut log may still say). An input that goes `lineBreakBytes` without a line break
 * (`cat /dev/zero`, a log that turns into NUL bytes, a binary stream the first bytes did not give away) is
 * no log: reading it throws a SourceError at that point. The head is counted like the rest.
 */
export function capInput(input: LogInput, bounds: InputBounds): LogInput {
  const { capBytes, lineBreakBytes, onCut } = bounds;
  let read = 0;
  let cut = false;
  let sinceBreak = 0;
  const stop = (): void => {
    if (!cut) {
      cut = true;
      onCut();
    }
  };
  // Each read is looked into from its end back to its last line break: text has one near the end.
  const count = (bytes: Uint8Array): void => {
    const last = bytes.lastIndexOf(NEWLINE);
    sinceBreak = last === -1 ? sinceBreak + bytes.length : bytes.length - last - 1;
    if (sinceBreak >= lineBreakBytes) throw noLineBreak(input.label, lineBreakBytes);
    read += bytes.length;
  };
  async function* body(): AsyncGenerator<Uint8Array> {
    for await (const chunk of input.body) {
      const room = capBytes - read;
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
      count(part);
      if (part.length > 0) yield part;
      // More than the cap came: the input is cut (one of exactly the cap's size is whole).
      if (part.length < chunk.length) {
        stop();
        return;
      }
    }
  }
  const readSync = input.readSync;
  return {
    ...input,
    body: body(),
    ...(readSync === undefined
      ? {}
      : {
          readSync: (target: Uint8Array): number => {
            const room = capBytes - read;
            if (room <= 0) {
              // The cap is reached: the input is cut if it goes on.
              if (readSync(target.subarray(0, 1)) > 0) stop();
              return 0;
            }
            const got = readSync(target.length > room ? target.subarray(0, room) : target);
            count(target.subarray(0, got));
            return got;
          },
        }),
  };
}

function noLineBreak(label: string, bytes: number): SourceError {
  return new SourceError(
    `cannot read ${label}: it holds ${bytes / 1024 ** 2} MiB without a line break, so it is not a log (an endless or binary input such as /dev/zero): pipe a log, or give the log file's path`,
  );
}
