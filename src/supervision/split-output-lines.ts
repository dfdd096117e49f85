import { LineSplitter } from '../parsing/split-lines.js';

/** Longest line kept whole; a longer run without a newline is passed on in pieces of this size. */
const MAX_LINE = 64 * 1024;

/**
 * Splits one output stream into lines as chunks arrive, with the diagnosis's own line rules (LF, CRLF,
 * a lone CR of a tqdm redraw). One splitter per stream, so stdout and stderr never glue halves of two
 * lines together.
 */
export class OutputLineSplitter {
  private lines: string[] = [];
  private readonly splitter = new LineSplitter((line) => this.lines.push(line), MAX_LINE, {
    longLines: 'split',
  });

  push(chunk: Uint8Array | string): string[] {
    this.splitter.push(chunk);
    return this.take();
  }

  /** The last line when the stream ended without a newline. */
  end(): string[] {
    this.splitter.end();
    return this.take();
  }

  private take(): string[] {
    const lines = this.lines;
    this.lines = [];
    return lines;
  }
}
