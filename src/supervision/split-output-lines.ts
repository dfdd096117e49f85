/** Longest line kept whole; a longer run without a newline is cut into pieces of this size. */
const MAX_LINE = 64 * 1024;

/**
 * Splits one output stream into lines as chunks arrive, on LF, CRLF and a lone CR (tqdm redraws its bar
 * with CR). One splitter per stream, so stdout and stderr never glue halves of two lines together.
 */
export class OutputLineSplitter {
  private pending = '';
  /** The previous chunk ended in CR: an LF opening this one completes a CRLF, not an empty line. */
  private afterCr = false;
  private readonly decoder = new TextDecoder('utf-8');

  push(chunk: Uint8Array | string): string[] {
    let text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    if (this.afterCr && text.startsWith('\n')) text = text.slice(1);
    if (text !== '') this.afterCr = text.endsWith('\r');
    const lines: string[] = [];
    let start = 0;
    if (!text.includes('\r')) {
      // The common case: LF only, found by indexOf rather than a loop over every character.
      for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
        lines.push(this.pending + text.slice(start, end));
        this.pending = '';
        start = end + 1;
      }
    } else {
      for (let index = 0; index < text.length; index += 1) {
        const code = text.charCodeAt(index);
        if (code !== 10 && code !== 13) continue;
        lines.push(this.pending + text.slice(start, index));
        this.pending = '';
        if (code === 13 && text.charCodeAt(index + 1) === 10) index += 1;
        start = index + 1;
      }
    }
    this.pending += text.slice(start);
    while (this.pending.length > MAX_LINE) {
      lines.push(this.pending.slice(0, MAX_LINE));
      this.pending = this.pending.slice(MAX_LINE);
    }
    return lines;
  }

  /** The last line when the stream ended without a newline. */
  end(): string[] {
    const rest = this.pending + this.decoder.decode();
    this.pending = '';
    return rest === '' ? [] : [rest];
  }
}
