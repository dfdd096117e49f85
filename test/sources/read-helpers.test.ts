import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { describeReadError } from '../../src/sources/describe-read-error.js';
import { isGzip } from '../../src/sources/gunzip-chunks.js';
import { splitLines } from '../../src/sources/split-lines.js';

const errno = (code: string, message = `${code}: raw message`) => Object.assign(new Error(message), { code });

describe('describeReadError', () => {
  it.each([
    [errno('ENOENT'), 'no such file'],
    [errno('EACCES'), 'permission denied'],
    [errno('EPERM'), 'permission denied'],
    [errno('EISDIR'), 'it is a folder, not a file'],
    [errno('ENOTDIR'), 'a part of the path is not a folder'],
    [errno('EIO'), 'input/output error'],
    [
      errno('EMFILE', 'EMFILE: too many open files, open x\n    at stack'),
      'EMFILE: too many open files, open x',
    ],
    ['a string', 'a string'],
  ])('%s → %s', (error, text) => expect(describeReadError(error)).toBe(text));
});

describe('isGzip', () => {
  it.each([
    [[0x1f, 0x8b, 0x08], true],
    [[0x1f, 0x8b], true],
    [[0x1f], false],
    [[], false],
    [[0x46, 0x65], false],
  ])('%j → %s', (bytes, gzip) => expect(isGzip(Uint8Array.from(bytes))).toBe(gzip));
});

describe('splitLines', () => {
  async function split(parts: (string | number[])[]): Promise<string[][]> {
    const chunks = parts.map((part) =>
      typeof part === 'string' ? Buffer.from(part) : Uint8Array.from(part),
    );
    const batches: string[][] = [];
    for await (const batch of splitLines(Readable.from(chunks, { objectMode: true }))) batches.push(batch);
    return batches;
  }

  it.each([
    ['one batch per chunk', ['a\nb\n', 'c\n'], [['a', 'b'], ['c']]],
    ['a line across chunks', ['ab', 'c', 'd\ne'], [['abcd'], ['e']]],
    ['empty lines kept', ['\n\nx\n'], [['', '', 'x']]],
    ['a character split across chunks', [[0xc3], [0xa9, 0x0a]], [['é']]],
  ])('%s', async (_what, parts, batches) => expect(await split(parts)).toEqual(batches));
});
