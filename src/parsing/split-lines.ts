/**
 * Splits a stream of bytes or text into lines on LF, CRLF and lone CR (progress bars redraw with CR),
 * whatever the chunk boundaries. Lines longer than `maxLength` are cut for analysis and counted.
 */
export class LineSplitter {
  private carry = '';
  private carryCut = false;
  private pendingCr = false;
  truncatedLines = 0;
  bytes = 0;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxLength: number,
  ) {}

  push(chunk: Uint8Array | string): void {
    if (typeof chunk === 'string') {
      this.bytes += chunk.length;
      this.pushText(chunk);
      return;
    }
    this.bytes += chunk.length;
    // Decoding whole chunks keeps multi-byte characters whole except at the very edge, which the
    // streaming decoder carries over.
    this.pushText(this.decoder.decode(chunk, { stream: true }));
  }

  end(): void {
    this.pushText(this.decoder.decode());
    if (this.carry.length > 0 || this.carryCut) this.emit(this.carry);
    this.carry = '';
    this.carryCut = false;
  }

  private readonly decoder = new TextDecoder('utf-8', { fatal: false });

  private pushText(text: string): void {
    let start = 0;
    const length = text.length;
    if (this.pendingCr && length > 0) {
      this.pendingCr = false;
      if (text.charCodeAt(0) === 10) start = 1;
    }
    // Next LF and CR at or after `start`, searched again only once passed: one pass over the text.
    let lf = text.indexOf('\n', start);
    let cr = text.indexOf('\r', start);
    while (start < length) {
      if (lf !== -1 && lf < start) lf = text.indexOf('\n', start);
      if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
      let end: number;
      let next: number;
      if (cr !== -1 && (lf === -1 || cr < lf)) {
        end = cr;
        if (cr + 1 === length) {
          this.pendingCr = true;
          next = length;
        } else {
          next = text.charCodeAt(cr + 1) === 10 ? cr + 2 : cr + 1;
        }
      } else if (lf !== -1) {
        end = lf;
        next = lf + 1;
      } else {
        this.append(text.slice(start));
        return;
      }
      this.append(text.slice(start, end));
      this.emit(this.carry);
      this.carry = '';
      this.carryCut = false;
      start = next;
    }
  }

  private append(piece: string): void {
    if (this.carryCut) return;
    const room = this.maxLength - this.carry.length;
    if (piece.length > room) {
      this.carry += piece.slice(0, Math.max(0, room));
      this.carryCut = true;
      this.truncatedLines++;
      return;
    }
    this.carry += piece;
  }

  private emit(line: string): void {
    this.onLine(line);
  }
}
