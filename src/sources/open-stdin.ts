import { SourceError } from '../errors.js';
import { describeReadError } from './describe-read-error.js';
import { prepend, type LogInput } from './log-input.js';
import { SNIFF_BYTES } from './sniff-input.js';

/**
 * stdin as an input. The first chunks are pulled at open time to tell what it is (sniff-input.ts); they
 * stay at the front of the body.
 */
export async function openStdin(stdin: NodeJS.ReadableStream): Promise<LogInput> {
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
  return {
    label: 'stdin',
    head: Buffer.concat(pulled),
    complete: done,
    body: prepend(Buffer.concat(pulled), rest()),
    // The caller owns stdin: ending our iterator would destroy it, so leave it as it is.
    close: () => Promise.resolve(),
  };
}

function toBuffer(chunk: Buffer | string): Buffer {
  return typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
}
