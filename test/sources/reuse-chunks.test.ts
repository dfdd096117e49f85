import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { diagnoseStream } from '../../src/diagnosis/index.js';
import { openSource } from '../../src/sources/index.js';
import { tempDir } from './helpers/fake-command.js';

const io = { stdin: Readable.from([]), env: {} };

/** About 5 MiB of serving chatter, then a worker's crash. */
function longLog(): string {
  const chatter = Array.from(
    { length: 60_000 },
    (_, i) =>
      `(APIServer pid=7) INFO 02-20 23:31:${String(i % 60).padStart(2, '0')} [loggers.py:123] step ${i}\n`,
  ).join('');
  return (
    'INFO 02-20 23:30:00 [api_server.py:1] vLLM API server version 0.11.0\n' +
    chatter +
    '(Worker_TP1 pid=9) ERROR 02-20 23:40:00 [multiproc_executor.py:671] Traceback (most recent call last):\n' +
    '(Worker_TP1 pid=9) ERROR 02-20 23:40:00 [multiproc_executor.py:671]   File "/x/worker.py", line 3, in run\n' +
    '(Worker_TP1 pid=9) ERROR 02-20 23:40:00 [multiproc_executor.py:671] RuntimeError: CUDA error: an illegal memory access was encountered\n'
  );
}

async function collect(
  chunks: AsyncIterable<Uint8Array>,
): Promise<{ buffers: Set<ArrayBufferLike>; text: string }> {
  const buffers = new Set<ArrayBufferLike>();
  const parts: Buffer[] = [];
  for await (const chunk of chunks) {
    buffers.add(chunk.buffer);
    parts.push(Buffer.from(chunk));
  }
  return { buffers, text: Buffer.concat(parts).toString() };
}

describe('a file read into reused buffers', () => {
  it('reads the same bytes through two buffers in turn', async () => {
    const path = join(await tempDir(), 'big.log');
    const text = longLog();
    await writeFile(path, text);
    const reused = await collect(
      (await openSource({ kind: 'files', paths: [path] }, io, { reuseChunks: true })).chunks,
    );
    const fresh = await collect((await openSource({ kind: 'files', paths: [path] }, io)).chunks);
    expect(reused.text).toBe(text);
    expect(fresh.text).toBe(text);
    expect(reused.buffers.size).toBe(2);
    expect(fresh.buffers.size).toBeGreaterThan(2);
  });

  it('gives the diagnosis that fresh buffers give', async () => {
    const path = join(await tempDir(), 'big.log');
    await writeFile(path, longLog());
    const open = (reuseChunks: boolean) => openSource({ kind: 'files', paths: [path] }, io, { reuseChunks });
    const reused = await diagnoseStream((await open(true)).chunks);
    const fresh = await diagnoseStream((await open(false)).chunks);
    expect(reused.rootCause?.message).toContain('illegal memory access');
    expect(JSON.stringify(reused)).toBe(JSON.stringify(fresh));
  });

  it('decompresses gzip read into two reused buffers, over many compressed chunks, to the same text', async () => {
    const path = join(await tempDir(), 'big.log.gz');
    // Random hex barely compresses: several MiB of gzip, so the two read buffers are reused many times.
    const noise = Array.from({ length: 80_000 }, () => randomBytes(48).toString('hex')).join('\n');
    const text = `${noise}\n${longLog()}`;
    const compressed = gzipSync(text);
    expect(compressed.length).toBeGreaterThan(3 << 20);
    await writeFile(path, compressed);
    const source = await openSource({ kind: 'files', paths: [path] }, io, { reuseChunks: true });
    const { text: read } = await collect(source.chunks);
    expect(read).toBe(text);
    expect(source.warnings).toEqual([]);
  });

  it('ends cleanly when the reader stops early (no hang, no stray error)', async () => {
    const path = join(await tempDir(), 'big.log.gz');
    await writeFile(path, gzipSync(longLog()));
    const source = await openSource({ kind: 'files', paths: [path] }, io, { reuseChunks: true });
    for await (const chunk of source.chunks) {
      expect(chunk.length).toBeGreaterThan(0);
      break;
    }
    // Nothing is left reading: the file is closed and a second pass gets nothing more.
    const rest = await collect(source.chunks);
    expect(rest.text).toBe('');
  });
});
