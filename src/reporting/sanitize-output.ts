import { LIMITS } from '../limits.js';

/**
 * The last step before any text leaves Vigil for a terminal: control characters that a log, a rule file, a
 * package name or an error message carried are made visible instead of acted on. Without this one log line
 * such as `ESC ] 52 ; c ; <base64> BEL` sets the operator's clipboard (OSC 52), `ESC ] 0 ;` the window title,
 * `ESC ] 8 ;` a disguised link, `ESC c` resets the terminal, and backspaces or a carriage return overwrite
 * what the report said.
 *
 * Kept: newline, tab, and Select Graphic Rendition (`ESC [ 1;31 m`, the colour codes Vigil writes itself).
 * A lone carriage return becomes a newline (a progress bar's redraws become lines); CR LF becomes LF.
 * Everything else in C0, DEL and C1 (U+0080–U+009F, e.g. U+009B, the one-character CSI) becomes its JSON
 * escape, `\u001b`: readable, and inside a JSON string value it is the same escape JSON itself would use, so
 * JSON output stays valid and decodes to the original text.
 */

// SGR only: parameters are digits and separators, the final byte is `m`. Bounded, so always linear.
const SGR_AFTER_ESC = /^\[[0-9;:]{0,32}m/;
// C0 except tab and newline, DEL, and C1.
// eslint-disable-next-line no-control-regex -- these are exactly the characters this module removes
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex -- as above
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

function escapeControl(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** `text` with every control character neutralised, colour codes kept. Pure, idempotent, linear. */
export function sanitizeOutput(text: string): string {
  if (!CONTROL.test(text)) return text;
  return text.replace(CONTROLS, (char: string, at: number) => {
    if (char === '\u001b' && SGR_AFTER_ESC.test(text.slice(at + 1, at + 36))) return char;
    if (char === '\r') return text[at + 1] === '\n' ? '' : '\n';
    return escapeControl(char);
  });
}

/** Whether `tail` could still become a colour code or CR LF once more text arrives. */
function mayContinue(tail: string): boolean {
  if (tail === '\r') return true;
  return tail.startsWith('\u001b') && /^(?:\[[0-9;:]{0,32})?$/.test(tail.slice(1));
}

export interface TextSink {
  write(text: string): unknown;
  isTTY?: boolean;
  /** Bytes written but not yet taken by the reader (a Node stream's writableLength). */
  readonly writableLength?: number;
}

/** A sink that also takes Vigil's own terminal controls (the progress line's clear-line), unsanitised. */
export interface SanitizedSink extends TextSink {
  write(chunk: string | Uint8Array): unknown;
  /** Writes a control sequence of Vigil's own, after whatever text is held back. */
  control(sequence: string): void;
  /** Writes what is held back (a trailing ESC or CR that no further text completed). */
  flush(): void;
}

/**
 * Wraps a stream so that everything written through it is sanitised. Chunks of a child's output may cut a
 * colour code, a CR LF or a UTF-8 character in two: the cut tail waits for the next chunk.
 */
export function sanitizeSink(target: TextSink): SanitizedSink {
  const decoder = new TextDecoder('utf-8');
  let held = '';
  const emit = (text: string): void => {
    if (text !== '') target.write(sanitizeOutput(text));
  };
  let dropped = 0;
  return {
    isTTY: target.isTTY,
    write(chunk) {
      // Bytes are a child's output passed through: with a stalled reader they would pile up without end
      // (1.3 GB in 20 s), so they are dropped and counted. Vigil's own text (strings) is always written.
      if (typeof chunk !== 'string') {
        if ((target.writableLength ?? 0) > LIMITS.outputBacklogBytes) {
          dropped += chunk.length;
          return true;
        }
        if (dropped > 0) {
          target.write(`\nvigil: ${dropped} bytes of output dropped: the reader did not keep up\n`);
          dropped = 0;
        }
      }
      let text = held + (typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
      held = '';
      const cut = Math.max(text.lastIndexOf('\u001b'), text.lastIndexOf('\r'));
      if (cut !== -1 && text.length - cut <= 36 && mayContinue(text.slice(cut))) {
        held = text.slice(cut);
        text = text.slice(0, cut);
      }
      emit(text);
      return true;
    },
    control(sequence) {
      this.flush();
      target.write(sequence);
    },
    flush() {
      const rest = held + decoder.decode();
      held = '';
      emit(rest);
    },
  };
}

/** Writes a control sequence of Vigil's own: raw on a sanitised sink, as it is on any other. */
export function writeControl(sink: { write(text: string): unknown }, sequence: string): void {
  const control = (sink as Partial<SanitizedSink>).control;
  if (typeof control === 'function') control.call(sink, sequence);
  else sink.write(sequence);
}
