import { LIMITS } from '../limits.js';

/**
 * The last step before any text leaves Vigil for a terminal: control characters that a log, a rule file, a
 * package name or an error message carried are made visible instead of acted on. Without this one log line
 * such as `ESC ] 52 ; c ; <base64> BEL` sets the operator's clipboard (OSC 52), `ESC ] 0 ;` the window title,
 * `ESC ] 8 ;` a disguised link, `ESC c` resets the terminal, and backspaces or a carriage return overwrite
 * what the report said.
 *
 * Kept: newline, tab, and the Select Graphic Rendition codes Vigil writes itself (bold, dim, red, green,
 * yellow, cyan and their ends), only when Vigil colours its output. Any other SGR is input's: `ESC [ 8 m`
 * (conceal) from a package's metadata would hide the rest of the report, a background colour equal to the
 * text's too. The server's own colour, passed through by `vigil run`, is kept (see sanitizeSink).
 * A lone carriage return becomes a newline (a progress bar's redraws become lines); CR LF becomes LF.
 * Everything else in C0, DEL and C1 (U+0080–U+009F, e.g. U+009B, the one-character CSI), and the Unicode
 * controls that reorder text (bidirectional overrides, isolates and marks, e.g. U+202E), becomes its JSON
 * escape, `\u001b`, `\u202e`: readable, and inside a JSON string value it is the same escape JSON itself
 * would use, so JSON output stays valid and decodes to the original text.
 */

/** Which colour codes survive: Vigil's own, any (the server's passed-through output), or none. */
export type KeptColours = 'own' | 'any' | 'none';

// SGR only: parameters are digits and separators, the final byte is `m`. Bounded, so always linear.
const ANY_SGR = /^\[([0-9;:]{0,32})m/;
// The parameters picocolors writes for Paint's colours (src/reporting/paint.ts) and their ends.
const OWN_SGR_PARAMETERS = new Set(['', '0', '1', '2', '22', '31', '32', '33', '36', '39']);
// C0 except tab and newline, DEL, C1, and the bidirectional controls (ALM, LRM, RLM, LRE..RLO, LRI..PDI).
// eslint-disable-next-line no-control-regex -- these are exactly the characters this module removes
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex -- as above
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function escapeControl(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Whether the ESC at `at` starts a colour code that `kept` lets through. */
function keepsSgr(text: string, at: number, kept: KeptColours): boolean {
  if (kept === 'none') return false;
  const sgr = ANY_SGR.exec(text.slice(at + 1, at + 36));
  if (sgr === null) return false;
  return kept === 'any' || (sgr[1] ?? '').split(/[;:]/).every((p) => OWN_SGR_PARAMETERS.has(p));
}

/**
 * `text` with every control character neutralised and only the colour codes `kept` allows (by default,
 * Vigil's own). Pure, idempotent, linear.
 */
export function sanitizeOutput(text: string, kept: KeptColours = 'own'): string {
  if (!CONTROL.test(text)) return text;
  return text.replace(CONTROLS, (char: string, at: number) => {
    if (char === '\u001b' && keepsSgr(text, at, kept)) return char;
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
 *
 * Strings are Vigil's own text, whose input-borne colour codes go unless `colour` (then only Vigil's own
 * stay). Bytes are the supervised server's output passed through, whose colours are its own and are kept;
 * a reset follows before Vigil's next text, so a colour the server left on (conceal included) cannot hide it.
 */
export function sanitizeSink(
  target: TextSink,
  options: { colour: boolean } = { colour: true },
): SanitizedSink {
  // The server's bytes pass through as they are: a BOM it printed is text of its own, not a marker to drop.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let held = '';
  let heldFromServer = false;
  let serverColoured = false;
  const emit = (text: string, fromServer: boolean): void => {
    if (text === '') return;
    if (fromServer) {
      const out = sanitizeOutput(text, 'any');
      serverColoured ||= out.includes('\u001b[');
      target.write(out);
      return;
    }
    if (serverColoured) target.write('\u001b[0m');
    serverColoured = false;
    target.write(sanitizeOutput(text, options.colour ? 'own' : 'none'));
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
      const fromServer = typeof chunk !== 'string';
      let text = held + (typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
      held = '';
      const cut = Math.max(text.lastIndexOf('\u001b'), text.lastIndexOf('\r'));
      if (cut !== -1 && text.length - cut <= 36 && mayContinue(text.slice(cut))) {
        held = text.slice(cut);
        heldFromServer = fromServer;
        text = text.slice(0, cut);
      }
      emit(text, fromServer);
      return true;
    },
    control(sequence) {
      this.flush();
      target.write(sequence);
    },
    flush() {
      const rest = held + decoder.decode();
      held = '';
      emit(rest, heldFromServer);
    },
  };
}

/** Writes a control sequence of Vigil's own: raw on a sanitised sink, as it is on any other. */
export function writeControl(sink: { write(text: string): unknown }, sequence: string): void {
  const control = (sink as Partial<SanitizedSink>).control;
  if (typeof control === 'function') control.call(sink, sequence);
  else sink.write(sequence);
}
