import type { Gunzip } from 'node:zlib';
import { createGunzip } from 'node:zlib';
import { SourceError, VigilError } from '../errors.js';
import { describeReadError, readFailed } from './describe-read-error.js';

/** gzip's magic bytes; checked instead of the extension, since rotated logs are often renamed. */
export function isGzip(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

/** The text comes out in pieces of this size (the consumer's scanning loop pays per piece). */
const OUT_BYTES = 1 << 20;
/**
 * gzip writes out all of a piece's text before it takes the next, whether or not the reader keeps up: fed
 * a 1 MiB piece of a log (about 10 MiB of text) it would hold all of it at once. Pieces of 256 KiB, each
 * written once the one before is taken in, keep what is held to a few MiB (smaller pieces cost more CPU:
 * each is a round trip to zlib's thread; BENCHMARKS.md).
 */
const IN_BYTES = 256 << 10;

/**
 * Decompresses a stream of gzip chunks as they arrive. Each compressed chunk is done with before the next
 * is asked for, so the source may read it into a reused buffer. A truncated file yields what it held and
 * adds a warning (the crash is usually in the part that was written); corrupt data is a SourceError.
 */
export async function* gunzipChunks(
  label: string,
  compressed: AsyncIterable<Uint8Array>,
  warnings: string[],
): AsyncGenerator<Uint8Array> {
  const gunzip = createGunzip({ chunkSize: OUT_BYTES });
  // An error of either side reaches the loop below through gunzip, which the feeder destroys with it.
  feedGunzip(compressed, gunzip).catch((error: unknown) => gunzip.destroy(error as Error));
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) yield chunk;
  } catch (error) {
    if (error instanceof VigilError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'Z_BUF_ERROR') {
      warnings.push(`${label}: the gzip data ends early (truncated file?); read the part it holds`);
      return;
    }
    if (code?.startsWith('Z_') === true) {
      throw new SourceError(`cannot read ${label}: corrupt gzip data (${describeReadError(error)})`, {
        cause: error,
      });
    }
    throw readFailed(label, error);
  } finally {
    // A reader that stops early (or an error) ends the feeding too: its next wait sees gunzip closed.
    gunzip.destroy();
  }
}

async function feedGunzip(compressed: AsyncIterable<Uint8Array>, gunzip: Gunzip): Promise<void> {
  const closed = new Promise<void>((resolve) => gunzip.once('close', resolve));
  for await (const chunk of compressed) {
    // Each piece is taken in whole before the next is written (its text read past, so little is held),
    // and the last before the chunk's buffer may be read into again. A closed gunzip ends the feeding.
    for (let at = 0; at < chunk.length && !gunzip.destroyed; at += IN_BYTES) {
      const piece = chunk.subarray(at, at + IN_BYTES);
      await Promise.race([new Promise((resolve) => gunzip.write(piece, resolve)), closed]);
    }
    if (gunzip.destroyed) return;
  }
  gunzip.end();
}
