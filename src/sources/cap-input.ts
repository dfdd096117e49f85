import type { LogInput } from './log-input.js';

/**
 * An input with no size of its own (stdin, a pipe) read up to `capBytes`: `yes | vigil diagnose -` would
 * otherwise read forever. Past the cap the input ends as if it had, and `onCut` is called once, so the
 * report says that only a part was read. The head is counted like the rest.
 */
export function capInput(input: LogInput, capBytes: number, onCut: () => void): LogInput {
  let read = 0;
  let cut = false;
  const stop = (): void => {
    if (!cut) {
      cut = true;
      onCut();
    }
  };
  async function* body(): AsyncGenerator<Uint8Array> {
    for await (const chunk of input.body) {
      const room = capBytes - read;
      if (chunk.length >= room) {
        if (room > 0) yield chunk.subarray(0, room);
        read = capBytes;
        stop();
        return;
      }
      read += chunk.length;
      yield chunk;
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
              stop();
              return 0;
            }
            const count = readSync(target.length > room ? target.subarray(0, room) : target);
            read += count;
            return count;
          },
        }),
  };
}
