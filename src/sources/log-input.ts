import type { InputKind } from './sniff-input.js';

/** One input of a `files` source: a file or stdin, opened but not yet read. */
export interface LogInput {
  label: string;
  /** The first bytes (up to SNIFF_BYTES), read at open time to tell what the input is. */
  head: Buffer;
  /** The head is the whole input. */
  complete: boolean;
  /** A regular file, which ends; stdin and pipes may not, and are read up to a cap (cap-input.ts). */
  sized?: boolean;
  /** What the head says the input is (sniffInput of head and complete), judged once where it is read. */
  kind: InputKind;
  /** All the bytes, the head included. */
  body: AsyncIterable<Uint8Array>;
  close(): Promise<void>;
  /**
   * Present for plain text that may be read synchronously instead of `body` (a regular file, the process's
   * stdin): writes the next bytes, the head included, into `target` and says how many; 0 at the end.
   * Throws the system's error.
   */
  readSync?: (target: Uint8Array) => number;
}

export async function* prepend(
  head: Buffer,
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  if (head.length > 0) yield head;
  yield* body;
}
