import { execFileSync, spawn } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SourceError, UsageError } from '../../src/errors.js';
import { openSource } from '../../src/sources/index.js';
import { readAll, tempDir } from './helpers/fake-command.js';

const noStdin = Readable.from([]);
const io = { stdin: noStdin, env: {} };

function logText(lines: number): string {
  return Array.from(
    { length: lines },
    (_, i) => `INFO 02-20 23:31:${String(i % 60).padStart(2, '0')} line ${i}\n`,
  ).join('');
}

async function openFiles(paths: string[], stdin: NodeJS.ReadableStream = noStdin) {
  return openSource({ kind: 'files', paths }, { stdin, env: {} });
}

describe('files', () => {
  it('reads a plain file in chunks of 1 MiB', async () => {
    const dir = await tempDir();
    const text = logText(120_000); // about 4 MiB
    await writeFile(join(dir, 'big.log'), text);
    const source = await openFiles([join(dir, 'big.log')]);
    const sizes: number[] = [];
    const parts: Buffer[] = [];
    for await (const chunk of source.chunks) {
      sizes.push(chunk.length);
      parts.push(Buffer.from(chunk));
    }
    expect(Buffer.concat(parts).toString()).toBe(text);
    expect(sizes[0]).toBe(1 << 20);
    expect(Math.max(...sizes)).toBe(1 << 20);
    expect(source).toMatchObject({ describe: join(dir, 'big.log'), formats: [], warnings: [] });
  });

  it('reads several files as one log in order, ending a file without a newline', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'a.log'), 'first\nno newline at end');
    await writeFile(join(dir, 'b.log'), 'second\n');
    const source = await openFiles([join(dir, 'a.log'), join(dir, 'b.log')]);
    expect(await readAll(source.chunks)).toBe('first\nno newline at end\nsecond\n');
    expect(source.describe).toBe(`${join(dir, 'a.log')}, ${join(dir, 'b.log')}`);
  });

  it('refuses an empty file with one line, before reading', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'empty.log'), '');
    await expect(openFiles([join(dir, 'empty.log')])).rejects.toThrow(
      new SourceError(`${join(dir, 'empty.log')} is empty: there is no log line to diagnose`),
    );
  });

  it('decompresses gzip found by its magic bytes, whatever the name', async () => {
    const dir = await tempDir();
    const text = logText(50_000);
    await writeFile(join(dir, 'rotated.log.1'), gzipSync(text));
    await writeFile(join(dir, 'plain.log.gz'), 'not compressed after all\n');
    const source = await openFiles([join(dir, 'rotated.log.1'), join(dir, 'plain.log.gz')]);
    expect(await readAll(source.chunks)).toBe(`${text}not compressed after all\n`);
    expect(source.formats).toEqual(['gzip']);
    expect(source.warnings).toEqual([]);
  });

  it('yields what a truncated gzip holds and warns', async () => {
    const dir = await tempDir();
    const text = logText(50_000);
    const compressed = gzipSync(text);
    await writeFile(join(dir, 'cut.log.gz'), compressed.subarray(0, Math.floor(compressed.length / 2)));
    const source = await openFiles([join(dir, 'cut.log.gz')]);
    const partial = await readAll(source.chunks);
    expect(partial.length).toBeGreaterThan(text.length / 4);
    expect(partial.length).toBeLessThan(text.length);
    expect(text.startsWith(partial)).toBe(true);
    expect(source.warnings).toEqual([
      `${join(dir, 'cut.log.gz')}: the gzip data ends early (truncated file?); read the part it holds`,
    ]);
  });

  it('fails on corrupt gzip data with one line', async () => {
    const dir = await tempDir();
    const compressed = gzipSync(logText(5_000));
    compressed.fill(0xff, 20, 60);
    await writeFile(join(dir, 'bad.gz'), compressed);
    const source = await openFiles([join(dir, 'bad.gz')]);
    const error = await readAll(source.chunks).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as Error).message).toMatch(
      new RegExp(`^cannot read ${join(dir, 'bad.gz')}: corrupt gzip data \\(.+\\)$`),
    );
  });

  it('reads a named pipe, as from <(zcat x.gz), gzip included', async () => {
    const dir = await tempDir();
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    await writeFile(join(dir, 'x.gz'), gzipSync('through a pipe\n'));
    const writer = spawn('sh', ['-c', `cat "${join(dir, 'x.gz')}" > "${fifo}"`], { stdio: 'ignore' });
    const written = new Promise((resolve) => writer.once('close', resolve));
    const source = await openFiles([fifo]);
    expect(await readAll(source.chunks)).toBe('through a pipe\n');
    expect(source.formats).toEqual(['gzip']);
    expect(await written).toBe(0);
  });

  it.each([
    ['a missing file', 'missing.log', 'no such file'],
    ['a folder', 'folder', 'it is a folder, not a file'],
    ['a path through a file', 'plain.log/x.log', 'a part of the path is not a folder'],
  ])('rejects %s before reading anything', async (_what, name, reason) => {
    const dir = await tempDir();
    await mkdir(join(dir, 'folder'));
    await writeFile(join(dir, 'plain.log'), 'x\n');
    const error = await openFiles([join(dir, 'plain.log'), join(dir, name)]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as Error).message).toBe(`cannot read ${join(dir, name)}: ${reason}`);
  });

  it.skipIf(process.getuid?.() === 0)('rejects a file it may not read', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'secret.log'), 'x\n');
    await chmod(join(dir, 'secret.log'), 0o000);
    await expect(openFiles([join(dir, 'secret.log')])).rejects.toThrow(
      `cannot read ${join(dir, 'secret.log')}: permission denied`,
    );
  });
});

describe('stdin', () => {
  it('reads stdin for "-" and for no paths', async () => {
    for (const paths of [['-'], []]) {
      const stdin = Readable.from([Buffer.from('a\n'), Buffer.from('b'), Buffer.from('\n')]);
      const source = await openFiles(paths, stdin);
      expect(await readAll(source.chunks)).toBe('a\nb\n');
      expect(source.describe).toBe('stdin');
    }
  });

  it('decompresses gzip on stdin, even when the first chunk holds one byte', async () => {
    const compressed = gzipSync('from a pipe\n');
    const stdin = Readable.from([
      compressed.subarray(0, 1),
      compressed.subarray(1, 7),
      compressed.subarray(7),
    ]);
    const source = await openFiles(['-'], stdin);
    expect(await readAll(source.chunks)).toBe('from a pipe\n');
    expect(source.formats).toEqual(['gzip']);
  });

  it('reads files and stdin in the order given', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'a.log'), 'file\n');
    const source = await openFiles([join(dir, 'a.log'), '-'], Readable.from(['stdin text\n']));
    expect(await readAll(source.chunks)).toBe('file\nstdin text\n');
  });

  it('refuses stdin twice', async () => {
    await expect(openSource({ kind: 'files', paths: ['-', '-'] }, io)).rejects.toBeInstanceOf(UsageError);
  });
});
