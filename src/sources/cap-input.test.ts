import { describe, expect, it } from 'vitest';
import { capInput } from './cap-input.js';
import type { LogInput } from './log-input.js';

/** An input of `total` bytes of 'y\n' in chunks of `chunk`; endless when total is Infinity. */
function yesInput(total: number, chunk: number): LogInput {
  let left = total;
  const next = (size: number): Buffer | null => {
    if (left <= 0) return null;
    const count = Math.min(size, left);
    left -= count;
    return Buffer.alloc(count, 'y\n');
  };
  return {
    label: 'stdin',
    head: Buffer.alloc(0),
    complete: false,
    kind: { kind: 'text' },
    body: (function* () {
      for (let part = next(chunk); part !== null; part = next(chunk)) yield part;
    })() as unknown as AsyncIterable<Uint8Array>,
    close: () => Promise.resolve(),
    readSync: (target) => {
      const part = next(target.length);
      if (part === null) return 0;
      target.set(part);
      return part.length;
    },
  };
}

async function drainBody(input: LogInput): Promise<number> {
  let bytes = 0;
  for await (const chunk of input.body) bytes += chunk.length;
  return bytes;
}

function drainSync(input: LogInput): number {
  const target = new Uint8Array(7);
  let bytes = 0;
  for (let count = input.readSync?.(target) ?? 0; count > 0; count = input.readSync?.(target) ?? 0) {
    bytes += count;
  }
  return bytes;
}

describe('capInput', () => {
  it.each([
    ['an endless input, read as chunks', Infinity, 'body', 100, 1],
    ['an endless input, read synchronously', Infinity, 'sync', 100, 1],
    ['an input of exactly the cap', 100, 'body', 100, 1],
    ['a shorter input', 40, 'body', 40, 0],
    ['a shorter input, read synchronously', 40, 'sync', 40, 0],
  ] as const)('%s', async (_name, total, how, read, cuts) => {
    let cut = 0;
    const input = capInput(yesInput(total, 30), 100, () => (cut += 1));
    expect(how === 'body' ? await drainBody(input) : drainSync(input)).toBe(read);
    expect(cut).toBe(cuts);
  });
});
