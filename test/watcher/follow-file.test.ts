import { appendFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { followFile } from '../../src/sources/follow-file.js';
import { tempDir, waitFor } from './helpers.js';

// Real files, changed as logrotate and restart scripts change them, under the real follower.

async function follow(path: string, backlogBytes?: number) {
  const lines: { line: string; file: string; offset: number }[] = [];
  const events: string[] = [];
  const follower = await followFile(path, {
    pollMs: 20,
    backlogBytes,
    onLine: (line, at) => lines.push({ line, ...at }),
    onReopen: (reason) => events.push(reason),
  });
  return { lines, events, stop: () => (follower.stop(), follower.ended) };
}

describe('followFile', () => {
  it('reads the backlog, then new lines, whole lines only, each with its offset', async () => {
    const path = join(tempDir(), 'server.log');
    writeFileSync(path, 'one\ntwo\n');
    const followed = await follow(path);
    appendFileSync(path, 'three\nfou');
    await waitFor('three', () => followed.lines.length === 3);
    appendFileSync(path, 'r\n');
    await waitFor('four', () => followed.lines.length === 4);
    await followed.stop();
    expect(followed.lines.map((line) => `${line.offset}:${line.line}`)).toEqual([
      '0:one',
      '4:two',
      '8:three',
      '14:four',
    ]);
  });

  it('drops the CR of a CRLF and decodes UTF-8, in a line read whole and in one split between reads', async () => {
    const path = join(tempDir(), 'server.log');
    writeFileSync(path, 'crlf\r\nsp\u00e4t\r\n');
    const followed = await follow(path);
    // The two bytes of an umlaut, the CR and the LF in separate writes: the line waits in pieces.
    const umlaut = Buffer.from('\u00fc');
    appendFileSync(path, Buffer.concat([Buffer.from('gr'), umlaut.subarray(0, 1)]));
    await new Promise((resolve) => setTimeout(resolve, 60));
    appendFileSync(path, Buffer.concat([umlaut.subarray(1), Buffer.from('n\r')]));
    await new Promise((resolve) => setTimeout(resolve, 60));
    appendFileSync(path, '\nlast\n');
    await waitFor('last', () => followed.lines.length === 4);
    await followed.stop();
    expect(followed.lines.map((line) => `${line.offset}:${line.line}`)).toEqual([
      '0:crlf',
      '6:sp\u00e4t',
      '13:gr\u00fcn',
      '20:last',
    ]);
  });

  it('starts a large backlog at a whole line', async () => {
    const path = join(tempDir(), 'server.log');
    writeFileSync(path, 'a long first line\nsecond\nthird\n');
    const followed = await follow(path, 10);
    await followed.stop();
    expect(followed.lines.map((line) => line.line)).toEqual(['third']);
  });

  it('follows the name across a rotation, the old file read to its end first', async () => {
    const dir = tempDir();
    const path = join(dir, 'server.log');
    writeFileSync(path, 'before\n');
    const followed = await follow(path);
    appendFileSync(path, 'last of the old file\n');
    renameSync(path, join(dir, 'server.log.1'));
    writeFileSync(path, 'first of the new file\n');
    await waitFor('the new file', () => followed.lines.some((line) => line.line === 'first of the new file'));
    await followed.stop();
    expect(followed.lines.map((line) => line.line)).toEqual([
      'before',
      'last of the old file',
      'first of the new file',
    ]);
    expect(followed.events).toEqual(['rotated']);
    expect(followed.lines[2]?.file).not.toBe(followed.lines[0]?.file);
  });

  it('reads a truncated file again from its start', async () => {
    const path = join(tempDir(), 'server.log');
    writeFileSync(path, 'a start that ran a long while\n');
    const followed = await follow(path);
    truncateSync(path, 0);
    await waitFor('the truncation', () => followed.events.length === 1);
    appendFileSync(path, 'next start\n');
    await waitFor('the next start', () => followed.lines.length === 2);
    await followed.stop();
    expect(followed.events).toEqual(['truncated']);
    expect(followed.lines[1]).toMatchObject({ line: 'next start', offset: 0 });
  });
});
