import { describe, expect, it } from 'vitest';
import { parseExportEntries } from './parse-export.js';

const KEEP = new Set(['MESSAGE', '_PID', '__CURSOR']);

/** A binary field as journalctl exports it: NAME, newline, 64-bit LE length, the bytes, newline. */
function binaryField(name: string, data: Buffer): Buffer {
  const size = Buffer.alloc(8);
  size.writeBigUInt64LE(BigInt(data.length));
  return Buffer.concat([Buffer.from(`${name}\n`), size, data, Buffer.from('\n')]);
}

const EXPORT = Buffer.concat([
  Buffer.from('__CURSOR=s=1;i=1\n_PID=42\nMESSAGE=first line\n_HOSTNAME=gpu-1\nMESSAGE=repeated\n\n'),
  Buffer.from('__CURSOR=s=1;i=2\n'),
  binaryField('MESSAGE', Buffer.from('Traceback (most recent call last):\n  File "x.py"\n')),
  binaryField('_COMM', Buffer.from([0xff, 0x00, 0x41])),
  Buffer.from('_PID=43\n\n'),
  Buffer.from('__CURSOR=s=1;i=3\n'),
  binaryField('MESSAGE', Buffer.from([0x62, 0xe9, 0x65])),
  Buffer.from('\n'),
]);

const WANT = [
  { __CURSOR: 's=1;i=1', _PID: '42', MESSAGE: 'first line' },
  { __CURSOR: 's=1;i=2', MESSAGE: 'Traceback (most recent call last):\n  File "x.py"\n', _PID: '43' },
  { __CURSOR: 's=1;i=3', MESSAGE: 'b\ufffde' },
];

async function parse(chunks: Uint8Array[]): Promise<{ entries: unknown[]; warnings: string[] }> {
  const warnings: string[] = [];
  const entries: unknown[] = [];
  // Each chunk comes in a turn of its own, as from a pipe.
  async function* source(): AsyncGenerator<Uint8Array> {
    for (const chunk of chunks) yield await Promise.resolve(chunk);
  }
  for await (const batch of parseExportEntries(source(), KEEP, warnings)) entries.push(...batch);
  return { entries, warnings };
}

function cutEvery(bytes: Buffer, size: number): Buffer[] {
  const parts: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) parts.push(bytes.subarray(at, at + size));
  return parts;
}

describe('parseExportEntries', () => {
  it.each([
    ['in one chunk', [EXPORT]],
    ['a byte at a time', cutEvery(EXPORT, 1)],
    ['in chunks of 7 bytes', cutEvery(EXPORT, 7)],
    ['cut inside a binary length', [EXPORT.subarray(0, 93), EXPORT.subarray(93)]],
  ])('reads text and binary fields %s, the first of a repeated one', async (_how, chunks) => {
    const { entries, warnings } = await parse(chunks);
    expect(entries).toEqual(WANT);
    expect(warnings).toEqual([]);
  });

  it('says when the stream stops inside an entry', async () => {
    const { entries, warnings } = await parse([EXPORT, Buffer.from('__CURSOR=s=1;i=4\nMESSAGE=cut')]);
    expect(entries).toEqual(WANT);
    expect(warnings).toEqual(['journalctl stopped inside an entry; the part of it that came was skipped']);
  });
});
