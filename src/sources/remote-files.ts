import { UsageError } from '../errors.js';
import type { CommandRunner } from '../system/run-command.js';
import { gunzipChunks, isGzip } from './gunzip-chunks.js';
import type { OpenedSource } from './types.js';

const NEWLINE = Buffer.from('\n');

/**
 * Log files on another host, each read by `cat` there and streamed here; gzip is told by its first bytes
 * and decompressed here, so the other host needs nothing but cat. A missing file fails at its turn.
 */
export function openRemoteFiles(
  paths: string[],
  runner: CommandRunner,
  env: Record<string, string | undefined>,
  timeoutMs: number,
): Promise<OpenedSource> {
  if (paths.includes('-')) {
    return Promise.reject(
      new UsageError(
        `'-' (standard input) is this host's: name the log files on ${runner.host ?? 'the other host'}`,
      ),
    );
  }
  const warnings: string[] = [];
  const formats: string[] = [];
  async function* read(): AsyncGenerator<Uint8Array> {
    let endsWithNewline = true;
    for (const path of paths) {
      const command = await runner.start('cat', ['--', path], {
        timeoutMs,
        env,
        label: `cat ${path}`,
      });
      if (!endsWithNewline) yield NEWLINE;
      for await (const chunk of decode(path, command.chunks)) {
        if (chunk.length === 0) continue;
        endsWithNewline = chunk[chunk.length - 1] === 0x0a;
        yield chunk;
      }
    }
  }
  async function* decode(path: string, chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    const iterator = chunks[Symbol.asyncIterator]();
    const first = await iterator.next();
    if (first.done === true) return;
    const rest = { [Symbol.asyncIterator]: () => iterator };
    if (!isGzip(first.value)) {
      yield first.value;
      yield* rest;
      return;
    }
    if (!formats.includes('gzip')) formats.push('gzip');
    async function* whole(): AsyncGenerator<Uint8Array> {
      yield first.value;
      yield* rest;
    }
    yield* gunzipChunks(`${runner.host ?? 'here'}:${path}`, whole(), warnings);
  }
  const names =
    paths.length <= 3
      ? paths.join(', ')
      : `${paths.slice(0, 2).join(', ')} and ${paths.length - 2} more files`;
  return Promise.resolve({ chunks: read(), describe: names, formats, warnings });
}
