import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRegularFile } from './read-regular-file.js';

const dir = mkdtempSync(join(tmpdir(), 'vigil-read-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('readRegularFile', () => {
  // Reads of small files share one buffer: each must give its own bytes only, whatever came before.
  it.each([
    ['a long file', 'x'.repeat(5000)],
    ['a short one after it', 'Name: six\n'],
    ['an empty one', ''],
    ['one bigger than the shared buffer', 'é'.repeat(200_000)],
    ['a short one after that', 'pip\n'],
  ])('%s', (name, text) => {
    expect(readRegularFile(write(name, text), 1024 * 1024)).toEqual({ kind: 'text', text });
  });

  it.each([
    [
      'over the cap',
      () => write('big', 'x'.repeat(11)),
      10,
      { kind: 'unreadable', reason: 'is 11 bytes, over the 10-byte limit' },
    ],
    ['at the cap', () => write('cap', 'x'.repeat(10)), 10, { kind: 'text', text: 'x'.repeat(10) }],
    ['missing', () => join(dir, 'nope'), 10, { kind: 'missing' }],
    ['under a file', () => join(write('plain', 'x'), 'below'), 10, { kind: 'missing' }],
    [
      'a folder',
      () => dir,
      10,
      { kind: 'unreadable', reason: 'is not a regular file (a device, FIFO or socket)' },
    ],
  ])('%s', (_name, path, cap, expected) => {
    expect(readRegularFile(path(), cap)).toEqual(expected);
  });

  // Headers only: the text ends after the first blank line, as /\r?\n\r?\n/ finds it.
  it.each([
    ['LF', 'Name: a\nVersion: 1\n\nbody\n\nmore', 'Name: a\nVersion: 1\n\n'],
    ['CRLF', 'Name: a\r\n\r\nbody', 'Name: a\r\n\r\n'],
    ['LF CR LF', 'Name: a\n\r\nbody\n\n', 'Name: a\n\r\n'],
    ['no blank line', 'Name: a\nVersion: 1\n', 'Name: a\nVersion: 1\n'],
    ['a long one first, its blank line late', `${'x'.repeat(3000)}\n\nbody`, `${'x'.repeat(3000)}\n\n`],
    ['then a short one without (the buffer holds the long one)', 'Name: b\n', 'Name: b\n'],
    ['a blank line in the first bytes', '\n\nName: c', '\n\n'],
  ])('up to the blank line: %s', (name, text, expected) => {
    expect(readRegularFile(write(`h-${name}`, text), 1024 * 1024, { upToBlankLine: true })).toEqual({
      kind: 'text',
      text: expected,
    });
  });

  it('refuses a FIFO without blocking', () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(readRegularFile(fifo, 10)).toEqual({
      kind: 'unreadable',
      reason: 'is not a regular file (a device, FIFO or socket)',
    });
  });
});
