import { describe, expect, it } from 'vitest';
import { SourceError } from '../errors.js';
import { capInput } from './cap-input.js';
import type { LogInput } from './log-input.js';

/** An input of `total` bytes of `fill` in chunks of `chunk`; endless when total is Infinity. */
function yesInput(total: number, chunk: number, fill: string | number = 'y\n'): LogInput {
  let left = total;
  const next = (size: number): Buffer | null => {
    if (left <= 0) return null;
    const count = Math.min(size, left);
    left -= count;
    return Buffer.alloc(count, fill);
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
    ['an input of exactly the cap', 100, 'body', 100, 0],
    ['an input of exactly the cap, read synchronously', 100, 'sync', 100, 0],
    ['an input one byte over the cap', 101, 'body', 100, 1],
    ['an input one byte over the cap, read synchronously', 101, 'sync', 100, 1],
    ['a shorter input', 40, 'body', 40, 0],
    ['a shorter input, read synchronously', 40, 'sync', 40, 0],
  ] as const)('%s', async (_name, total, how, read, cuts) => {
    let cut = 0;
    const input = capInput(yesInput(total, 30), {
      capBytes: 100,
      lineBreakBytes: 50,
      onCut: () => (cut += 1),
    });
    expect(how === 'body' ? await drainBody(input) : drainSync(input)).toBe(read);
    expect(cut).toBe(cuts);
  });

  it.each([
    ['NUL bytes without end, read as chunks', Infinity, 0, 'body'],
    ['NUL bytes without end, read synchronously', Infinity, 0, 'sync'],
    ['text without a line break, read as chunks', Infinity, 'x', 'body'],
    ['a line break only after the bound', 60, 'x', 'body'],
  ] as const)('refuses %s once the bound passes with no line break', async (_name, total, fill, how) => {
    const input = capInput(yesInput(total, 7, fill), { capBytes: 100, lineBreakBytes: 50, onCut: () => {} });
    const read = how === 'body' ? drainBody(input) : Promise.resolve().then(() => drainSync(input));
    await expect(read).rejects.toThrow(SourceError);
    await expect(read).rejects.toThrow(
      /^cannot read stdin: it holds 0\.0000476837158203125 MiB without a line break/,
    );
  });

  it('refuses a line break followed by NUL bytes without end', async () => {
    const zeros = yesInput(Infinity, 7, 0);
    const input: LogInput = {
      ...zeros,
      body: (async function* () {
        yield Buffer.from('INFO starting\n');
        yield* zeros.body;
      })(),
    };
    const capped = capInput(input, { capBytes: 1000, lineBreakBytes: 50, onCut: () => {} });
    await expect(drainBody(capped)).rejects.toThrow(/without a line break/);
  });

  it('reads lines each just within the bound', async () => {
    const line = Buffer.concat([Buffer.alloc(49, 'x'), Buffer.from('\n')]);
    const input: LogInput = {
      ...yesInput(0, 7),
      body: (async function* () {
        for (let n = 0; n < 10; n += 1) yield await Promise.resolve(line);
      })(),
    };
    const capped = capInput(input, { capBytes: 1000, lineBreakBytes: 50, onCut: () => {} });
    expect(await drainBody(capped)).toBe(500);
  });
});
