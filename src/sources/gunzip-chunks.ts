import { Readable, pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { SourceError, VigilError } from '../errors.js';
import { describeReadError, readFailed } from './describe-read-error.js';

/** gzip's magic bytes; checked instead of the extension, since rotated logs are often renamed. */
export function isGzip(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

/**
 * Decompresses a stream of gzip chunks as they arrive. A truncated file yields what it held and adds a
 * warning (the crash is usually in the part that was written); corrupt data is a SourceError.
 */
export async function* gunzipChunks(
  label: string,
  compressed: AsyncIterable<Uint8Array>,
  warnings: string[],
): AsyncGenerator<Uint8Array> {
  const gunzip = createGunzip({ chunkSize: 1 << 20 });
  // Errors of either side reach the loop below through gunzip, which pipeline destroys with them.
  pipeline(Readable.from(compressed), gunzip, () => undefined);
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
  }
}
