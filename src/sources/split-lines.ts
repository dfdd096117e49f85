/**
 * Splits a byte stream into text lines, a batch per chunk (one await per chunk, not per line). Lines are
 * decoded as UTF-8 only once whole, so a character split across chunks survives. No trailing '\n'.
 */
export async function* splitLines(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string[]> {
  let pending: Buffer[] = [];
  for await (const raw of chunks) {
    const chunk = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    const lines: string[] = [];
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
      if (pending.length > 0) {
        pending.push(chunk.subarray(start, end));
        lines.push(Buffer.concat(pending).toString('utf8'));
        pending = [];
      } else {
        lines.push(chunk.toString('utf8', start, end));
      }
      start = end + 1;
    }
    // Copy the unfinished tail so the whole chunk is not kept alive for a few bytes.
    if (start < chunk.length) pending.push(Buffer.from(chunk.subarray(start)));
    if (lines.length > 0) yield lines;
  }
  if (pending.length > 0) yield [Buffer.concat(pending).toString('utf8')];
}
