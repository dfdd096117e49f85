import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { diagnoseFrom, diagnoseStream } from '../../src/diagnosis/index.js';
import { openSource, type OpenedSource } from '../../src/sources/index.js';
import { readAll, tempDir } from './helpers/fake-command.js';
import { longLog } from './helpers/long-log.js';

/** All a source's `readInto` gives, read `size` bytes at a time, as text. */
function readAllInto(source: OpenedSource, size: number): string {
  const target = Buffer.alloc(size);
  const parts: Buffer[] = [];
  for (let count = source.readInto!(target); count > 0; count = source.readInto!(target)) {
    parts.push(Buffer.from(target.subarray(0, count)));
  }
  return Buffer.concat(parts).toString();
}

/** Never read: the descriptor is, and a test that reads this stream instead fails on its text. */
const unusedStream = (): Readable => Readable.from([Buffer.from('the stream, not the descriptor\n')]);
const CLI = resolve('dist/cli/bin.js');

/** A named pipe's read end as a descriptor, with a real writer (`sh`) feeding it `file`. */
async function pipeFrom(file: string): Promise<{ fd: number; written: Promise<unknown> }> {
  const fifo = join(await tempDir(), 'stdin.fifo');
  execFileSync('mkfifo', [fifo]);
  const writer = spawn('sh', ['-c', `cat '${file}' > '${fifo}'`], { stdio: 'ignore' });
  const written = new Promise((done) => writer.once('close', done));
  // Opening a pipe's read end waits for its writer, which the shell opens.
  return { fd: openSync(fifo, 'r'), written };
}

async function writeLog(name: string, content: string | Buffer): Promise<string> {
  const path = join(await tempDir(), name);
  await writeFile(path, content);
  return path;
}

describe("the process's stdin read from its descriptor", () => {
  it('reads a pipe straight into the diagnosis, with the diagnosis the stream gives', async () => {
    const text = longLog();
    const file = await writeLog('big.log', text);
    const { fd, written } = await pipeFrom(file);
    try {
      const source = await openSource(
        { kind: 'files', paths: ['-'] },
        { stdin: unusedStream(), stdinFd: fd, env: {} },
      );
      expect(source.readInto).toBeDefined();
      const direct = diagnoseFrom(source.readInto!);
      const streamed = await diagnoseStream(Readable.from([Buffer.from(text)]));
      expect(direct.rootCause?.message).toContain('illegal memory access');
      expect(direct.input.lines).toBe(text.split('\n').length - 1);
      expect(JSON.stringify({ ...direct, input: { ...direct.input, bytes: 0 } })).toBe(
        JSON.stringify({ ...streamed, input: { ...streamed.input, bytes: 0 } }),
      );
    } finally {
      closeSync(fd);
    }
    expect(await written).toBe(0);
  });

  it('gives the same bytes as chunks, gzip on a pipe decompressed', async () => {
    const text = longLog();
    const { fd, written } = await pipeFrom(await writeLog('big.log.gz', gzipSync(text)));
    try {
      const source = await openSource(
        { kind: 'files', paths: ['-'] },
        { stdin: unusedStream(), stdinFd: fd, env: {} },
      );
      expect(source.formats).toEqual(['gzip']);
      expect(await readAll(source.chunks)).toBe(text);
    } finally {
      closeSync(fd);
    }
    await written;
  });

  it('reads a file given as stdin (< FILE) after other files, a newline between', async () => {
    const first = await writeLog('a.log', 'first\nno newline');
    const fd = openSync(await writeLog('b.log', 'second\n'), 'r');
    try {
      const source = await openSource(
        { kind: 'files', paths: [first, '-'] },
        { stdin: unusedStream(), stdinFd: fd, env: {} },
      );
      expect(readAllInto(source, 4)).toBe('first\nno newline\nsecond\n');
    } finally {
      closeSync(fd);
    }
  });

  it('waits on a pipe left non-blocking until its writer writes again, then reads to its end', async () => {
    const fifo = join(await tempDir(), 'slow.fifo');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn(
      'sh',
      ['-c', `exec 3>'${fifo}'; printf 'first\\n' >&3; sleep 0.4; printf 'second\\n' >&3`],
      {
        stdio: 'ignore',
      },
    );
    const written = new Promise((done) => writer.once('close', done));
    // A blocking open waits for the writer; a second, non-blocking one then reads the same pipe.
    const waiting = openSync(fifo, 'r');
    const fd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    closeSync(waiting);
    try {
      const source = await openSource(
        { kind: 'files', paths: ['-'] },
        { stdin: unusedStream(), stdinFd: fd, env: {} },
      );
      expect(readAllInto(source, 64)).toBe('first\nsecond\n');
    } finally {
      closeSync(fd);
    }
    expect(await written).toBe(0);
  });

  it('refuses an empty pipe with one line', async () => {
    const { fd, written } = await pipeFrom(await writeLog('empty.log', ''));
    try {
      await expect(
        openSource({ kind: 'files', paths: ['-'] }, { stdin: unusedStream(), stdinFd: fd, env: {} }),
      ).rejects.toThrow(/^stdin is empty/);
    } finally {
      closeSync(fd);
    }
    await written;
  });
});

describe('vigil diagnose - on a real pipe, socket and file (the built CLI)', () => {
  const run = (script: string, env: Record<string, string> = {}) =>
    spawnSync('sh', ['-c', script], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env } });

  it.each([
    ['a shell pipe', (file: string) => `cat '${file}' | node '${CLI}' diagnose -`],
    ['a file redirected', (file: string) => `node '${CLI}' diagnose - < '${file}'`],
    ['gzip on a pipe', (file: string) => `gzip -c '${file}' | node '${CLI}' diagnose -`],
  ])('names the crash read from %s', async (_, script) => {
    const file = await writeLog('server.log', longLog());
    const result = run(script(file), { VIGIL_DEBUG: '1' });
    expect(result.stderr).not.toContain('Error');
    expect(result.stdout).toContain('illegal memory access');
    expect(result.status).toBe(1);
  });

  it('reads a socket as stdin (how node spawns a child with a piped stdin)', async () => {
    const text = longLog();
    const child = spawn(process.execPath, [CLI, 'diagnose', '-'], { env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stdin.end(text);
    const code = await new Promise((done) => child.once('close', done));
    expect(stdout).toContain('illegal memory access');
    expect(code).toBe(1);
  });

  it('says in one line that a closed or empty stdin holds no log, exit 2', () => {
    for (const script of [`node '${CLI}' diagnose - <&-`, `node '${CLI}' diagnose - < /dev/null`]) {
      const result = run(script);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/^vigil: (stdin is empty|cannot read stdin)/);
      expect(result.status).toBe(2);
    }
  });
});
