import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VigilError } from '../errors.js';
import { FileExistsError, writeFileAtomic } from './write-file-atomic.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vigil-atomic-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('writes a new file and leaves no temporary file', async () => {
    const path = join(dir, 'report.md');
    await writeFileAtomic(path, '# report\n');
    expect(await readFile(path, 'utf8')).toBe('# report\n');
    expect(await readdir(dir)).toEqual(['report.md']);
  });

  it('writes bytes', async () => {
    const path = join(dir, 'data.bin');
    await writeFileAtomic(path, new Uint8Array([0, 255, 10]));
    expect([...(await readFile(path))]).toEqual([0, 255, 10]);
  });

  it('refuses to overwrite an existing file and keeps it intact', async () => {
    const path = join(dir, 'notes.txt');
    await writeFile(path, 'the user wrote this');
    await expect(writeFileAtomic(path, 'new')).rejects.toBeInstanceOf(FileExistsError);
    await expect(writeFileAtomic(path, 'new')).rejects.toThrow(/notes\.txt already exists/);
    expect(await readFile(path, 'utf8')).toBe('the user wrote this');
    expect(await readdir(dir)).toEqual(['notes.txt']);
  });

  it('overwrites when asked', async () => {
    const path = join(dir, 'state.json');
    await writeFile(path, '{"old":true}');
    await writeFileAtomic(path, '{"new":true}', { overwrite: true });
    expect(await readFile(path, 'utf8')).toBe('{"new":true}');
    expect(await readdir(dir)).toEqual(['state.json']);
  });

  it('applies the mode to a new file', async () => {
    const path = join(dir, 'secret.json');
    await writeFileAtomic(path, '{}', { mode: 0o600 });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('lets exactly one of many concurrent writers create the file, whole', async () => {
    const path = join(dir, 'race.txt');
    const payloads = Array.from({ length: 16 }, (_, i) => `writer ${i} `.repeat(10_000));
    const results = await Promise.allSettled(payloads.map((p) => writeFileAtomic(path, p)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(FileExistsError);
    expect(payloads).toContain(await readFile(path, 'utf8'));
    expect(await readdir(dir)).toEqual(['race.txt']);
  });

  it.each([
    [
      'a missing folder',
      (d: string) => join(d, 'nope', 'x.txt'),
      /cannot write .*: its folder does not exist/,
    ],
    ['a folder as target', (d: string) => d, /already exists|cannot write/],
  ])('turns %s into a one-line VigilError', async (_name, target, message) => {
    const error: unknown = await writeFileAtomic(target(dir), 'x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VigilError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('does not replace a folder even with overwrite', async () => {
    const path = join(dir, 'sub');
    await mkdir(path);
    await expect(writeFileAtomic(path, 'x', { overwrite: true })).rejects.toBeInstanceOf(VigilError);
    expect((await stat(path)).isDirectory()).toBe(true);
  });
});
