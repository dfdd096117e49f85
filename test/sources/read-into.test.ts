import { execFileSync, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { diagnoseFrom, diagnoseStream } from '../../src/diagnosis/index.js';
import { openSource } from '../../src/sources/index.js';
import { tempDir } from './helpers/fake-command.js';
import { longLog } from './helpers/long-log.js';

const io = { stdin: Readable.from([]), env: {} };

/** Everything `readInto` gives, asked for `size` bytes at a time, and what one more call gives after. */
function drain(readInto: (target: Uint8Array) => number, size: number): { text: string; after: number } {
  const parts: Buffer[] = [];
  const target = Buffer.alloc(size);
  for (;;) {
    const count = readInto(target);
    if (count === 0) break;
    parts.push(Buffer.from(target.subarray(0, count)));
  }
  return { text: Buffer.concat(parts).toString(), after: readInto(target) };
}

async function writeLog(name: string, content: string | Buffer): Promise<string> {
  const path = join(await tempDir(), name);
  await writeFile(path, content);
  return path;
}

describe('a regular file read straight into the caller’s buffer (readInto)', () => {
  it.each([7, 4096, 1 << 20])('gives the file’s bytes, %s at a time, then 0 and 0 again', async (size) => {
    const text = longLog();
    const source = await openSource({ kind: 'files', paths: [await writeLog('big.log', text)] }, io);
    expect(source.readInto).toBeDefined();
    const { text: read, after } = drain(source.readInto!, size);
    expect(read).toBe(text);
    expect(after).toBe(0);
  });

  it('puts a newline between two files when the first has none at its end, as the chunks do', async () => {
    const paths = [await writeLog('a.log', 'first\nno newline'), await writeLog('b.log', 'second\n')];
    const source = await openSource({ kind: 'files', paths }, io);
    expect(drain(source.readInto!, 5).text).toBe('first\nno newline\nsecond\n');
    const again = await openSource({ kind: 'files', paths }, io);
    const chunks: Buffer[] = [];
    for await (const chunk of again.chunks) chunks.push(Buffer.from(chunk));
    expect(Buffer.concat(chunks).toString()).toBe('first\nno newline\nsecond\n');
  });

  it('refuses an empty file among them, naming it', async () => {
    const paths = [await writeLog('one.log', 'x\n'), await writeLog('empty.log', '')];
    await expect(openSource({ kind: 'files', paths }, io)).rejects.toThrow(/empty\.log is empty/);
  });

  it('gives the diagnosis the chunks give', async () => {
    const path = await writeLog('big.log', longLog());
    const open = () => openSource({ kind: 'files', paths: [path] }, io);
    const direct = diagnoseFrom((await open()).readInto!);
    const streamed = await diagnoseStream((await open()).chunks);
    expect(direct.rootCause?.message).toContain('illegal memory access');
    expect(JSON.stringify(direct)).toBe(JSON.stringify(streamed));
  });

  it('is absent for a named pipe, which is read as a stream', async () => {
    const fifo = join(await tempDir(), 'server.fifo');
    execFileSync('mkfifo', [fifo]);
    // A real writer at the other end; opening the pipe waits for it.
    const writer = spawn('sh', ['-c', `printf 'first\\nsecond\\n' > '${fifo}'`]);
    const written = new Promise((resolve) => writer.once('close', resolve));
    const source = await openSource({ kind: 'files', paths: [fifo] }, io);
    expect(source.readInto).toBeUndefined();
    const chunks: Buffer[] = [];
    for await (const chunk of source.chunks) chunks.push(Buffer.from(chunk));
    expect(Buffer.concat(chunks).toString()).toBe('first\nsecond\n');
    expect(await written).toBe(0);
  });

  it('is absent for gzip data and for standard input, which arrive as chunks', async () => {
    const gz = await writeLog('big.log.gz', gzipSync(longLog()));
    expect((await openSource({ kind: 'files', paths: [gz] }, io)).readInto).toBeUndefined();
    const plain = await writeLog('a.log', 'a\n');
    const withStdin = { stdin: Readable.from([Buffer.from('b\n')]), env: {} };
    expect((await openSource({ kind: 'files', paths: [plain, '-'] }, withStdin)).readInto).toBeUndefined();
  });
});
