/**
 * Splits a stream of bytes or text into lines on LF, CRLF and lone CR (progress bars redraw with CR),
 * whatever the chunk boundaries. Lines longer than `maxLength` are cut for analysis and counted, or, with
 * `longLines: 'split'`, passed on whole in pieces of that length (a supervised server's own output).
 */
export class LineSplitter {
  private carry = '';
  private carryCut = false;
  private pendingCr = false;
  truncatedLines = 0;
  bytes = 0;

  private readonly splitLong: boolean;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxLength: number,
    options: { longLines?: 'cut' | 'split' } = {},
  ) {
    this.splitLong = options.longLines === 'split';
  }

  push(chunk: Uint8Array | string): void {
    if (typeof chunk === 'string') {
      this.bytes += chunk.length;
      this.pushText(chunk);
      return;
    }
    this.bytes += chunk.length;
    let bytes = chunk;
    if (this.pendingBytes !== null) {
      bytes = new Uint8Array(this.pendingBytes.length + chunk.length);
      bytes.set(this.pendingBytes);
      bytes.set(chunk, this.pendingBytes.length);
      this.pendingBytes = null;
    }
    // A character split by the chunk's edge waits for the next chunk. Not the streaming decoder: its
    // output then starts with the carried character as a cons string, which V8 may flatten again on
    // every indexOf, and a 1 MiB chunk turns quadratic.
    const whole = completeUtf8Length(bytes);
    if (whole < bytes.length) this.pendingBytes = bytes.slice(whole);
    this.pushText(this.decoder.decode(bytes.subarray(0, whole)));
  }

  end(): void {
    if (this.pendingBytes !== null) this.pushText(this.decoder.decode(this.pendingBytes));
    this.pendingBytes = null;
    if (this.carry.length > 0 || this.carryCut) this.emit(this.carry);
    this.carry = '';
    this.carryCut = false;
  }

  private readonly decoder = new TextDecoder('utf-8', { fatal: false });
  private pendingBytes: Uint8Array | null = null;

  private pushText(text: string): void {
    if (!this.pendingCr && text.indexOf('\r') === -1) this.pushLfText(text);
    else this.pushMixedText(text);
  }

  /**
   * The common case, LF only, in one tight loop: V8 keeps it optimised, where the general loop below
   * sometimes fell back to the interpreter and ran fifty times slower.
   */
  private pushLfText(text: string): void {
    let start = 0;
    if (this.carry !== '' || this.carryCut) {
      const lf = text.indexOf('\n');
      if (lf === -1) {
        this.append(text);
        return;
      }
      this.append(text.slice(0, lf));
      this.flushCarry();
      start = lf + 1;
    }
    const max = this.maxLength;
    const onLine = this.onLine;
    for (;;) {
      const lf = text.indexOf('\n', start);
      if (lf === -1) break;
      if (lf - start <= max) onLine(text.slice(start, lf));
      else if (this.splitLong) {
        for (let piece = start; piece < lf; piece += max)
          onLine(text.slice(piece, Math.min(piece + max, lf)));
      } else {
        this.truncatedLines++;
        onLine(text.slice(start, start + max));
      }
      start = lf + 1;
    }
    if (start < text.length) this.append(text.slice(start));
  }

  private pushMixedText(text: string): void {
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
      this.flushCarry();
      start = next;
    }
  }

  private flushCarry(): void {
    this.emit(this.carry);
    this.carry = '';
    this.carryCut = false;
  }

  private append(piece: string): void {
    if (this.splitLong) {
      this.carry += piece;
      while (this.carry.length > this.maxLength) {
        this.emit(this.carry.slice(0, this.maxLength));
        this.carry = this.carry.slice(this.maxLength);
      }
      return;
    }
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

/** The length of `bytes` without a UTF-8 sequence cut short at its end. */
function completeUtf8Length(bytes: Uint8Array): number {
  const length = bytes.length;
  // Walk back over at most three continuation bytes to the lead byte of the last character.
  for (let back = 1; back <= 4 && back <= length; back++) {
    const byte = bytes[length - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue;
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? length - back : length;
  }
  return length;
}
