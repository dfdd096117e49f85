import { describe, expect, it } from 'vitest';
import { tapLines } from './tap-lines.js';

async function tap(chunks: Uint8Array[]): Promise<{ lines: string[]; passed: Uint8Array[] }> {
  const lines: string[] = [];
  const passed: Uint8Array[] = [];
  for await (const chunk of tapLines(toAsync(chunks), (line) => lines.push(line))) passed.push(chunk);
  return { lines, passed };
}

async function* toAsync(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield await Promise.resolve(chunk);
}

describe('tapLines', () => {
  it('passes every chunk on unchanged and hands over each line once, across chunk edges', async () => {
    const bytes = new TextEncoder().encode('one\ntwo wörd\nthree');
    const chunks = [bytes.subarray(0, 2), bytes.subarray(2, 10), bytes.subarray(10)];
    const { lines, passed } = await tap(chunks);
    expect(passed).toEqual(chunks);
    expect(lines).toEqual(['one', 'two wörd', 'three']);
  });

  it('decodes a character split between chunks', async () => {
    const bytes = new TextEncoder().encode('é\n');
    const { lines } = await tap([bytes.subarray(0, 1), bytes.subarray(1)]);
    expect(lines).toEqual(['é']);
  });
});
