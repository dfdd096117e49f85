import type { Frame } from '../parsing/traceback.js';

/**
 * What makes two failures the same across processes: the exception's type, its message with the
 * numbers, addresses, pids and paths that differ per process masked, and where it was raised.
 */
export function fingerprintFailure(
  exception: string | null,
  message: string,
  frames: readonly Frame[],
): string {
  const type = exception === null ? '' : exception.slice(exception.lastIndexOf('.') + 1);
  const raisedIn = frames.at(-1)?.function ?? '';
  const end = message.indexOf('\n');
  const first = end === -1 ? message : message.slice(0, end);
  return `${type}|${maskVariable(first)}|${raisedIn}`;
}

export function maskVariable(text: string): string {
  let masked = text.slice(0, 500);
  // Each pass only where it can match: this runs on every failure line of a long log.
  if (/0x[0-9a-f]/i.test(masked)) masked = masked.replace(/0x[0-9a-f]+/gi, 'H');
  masked = maskIds(masked);
  if (masked.includes('/')) masked = masked.replace(/(?:\/[\w.@+-]+)+\/?/g, 'P');
  masked = masked
    .replace(/\b(?:rank|pid|tp|dp|gpu|device|cuda:)\s*[=:]?\s*\d+/gi, 'R')
    .replace(/\d+(?:\.\d+)?/g, 'N');
  // A lone space stays as it is: replacing every one of them was a quarter of the masking of a request
  // error's line (3 of 11 µs).
  if (needsSpacesFolded(masked)) masked = masked.replace(/\s+/g, ' ');
  return masked.trim();
}

const ID = /\b[\w-]*?[0-9a-f]{12,}\b/gi;

/**
 * Request, trace and cursor ids: ID replaced by `I`. Its matches are made of `[\w-]` alone, and what
 * bounds a run of those is a non-word character on both sides, as the string's ends are; so ID is run on
 * each run that holds twelve hex digits, alone, and every other character is left as it is (the same
 * result, at a fraction of the cost: ID retries at every word of a line).
 */
function maskIds(text: string): string {
  let found = findHexRun(text, 0);
  if (found === -1) return text;
  let masked = '';
  let done = 0;
  while (found !== -1) {
    let start = found;
    while (start > done && isIdCharacter(text.charCodeAt(start - 1))) start--;
    let end = found + 12;
    while (end < text.length && isIdCharacter(text.charCodeAt(end))) end++;
    masked += text.slice(done, start) + maskIdRun(text, start, found, end);
    done = end;
    found = findHexRun(text, end);
  }
  return masked + text.slice(done);
}

/**
 * The run of `[\w-]` in [start, end) masked, whose first twelve hex digits in a row begin at `found`. The
 * common id (`chatcmpl-` and hex to the run's end, after a letter) is all one match of ID: no regex, whose
 * lazy prefix tries every length of it (0.3 µs an id).
 */
function maskIdRun(text: string, start: number, found: number, end: number): string {
  // ID's match starts at the run's start when a word character is there (a `\b`), and its lazy prefix ends
  // at `found`, since no twelve hex digits begin before; hex digits from there to the run's end are all
  // its `[0-9a-f]{12,}\b`.
  let at = found + 12;
  while (at < end && isHexDigit(text.charCodeAt(at))) at++;
  const first = text.charCodeAt(start);
  // The run is `[\w-]`: a word character is any of it but a dash.
  if (at === end && first !== 0x2d) return 'I';
  return text.slice(start, end).replace(ID, 'I');
}

/** Whether `text` holds what maskVariable takes for an id: twelve hex digits in a row. */
export function holdsId(text: string): boolean {
  return findHexRun(text, 0) !== -1;
}

const HEX_DIGIT = new Uint8Array(128);
for (const digit of '0123456789abcdefABCDEF') HEX_DIGIT[digit.charCodeAt(0)] = 1;

/**
 * Where twelve hex digits in a row first begin from `from` (`/[0-9a-f]{12}/i`, which is slower). Each
 * window of twelve is read from its end back: a character that is no hex digit rules out every run
 * that would hold it, so the window starts again after it, and most of a line is passed over unread.
 */
export function findHexRun(text: string, from: number): number {
  let start = from;
  while (start + 12 <= text.length) {
    let at = start + 11;
    while (at >= start && isHexDigit(text.charCodeAt(at))) at--;
    if (at < start) return start;
    start = at + 1;
  }
  return -1;
}

function isHexDigit(code: number): boolean {
  return code < 128 && HEX_DIGIT[code] === 1;
}

/** `[\w-]`: a letter, a digit, `_` or `-`. */
function isIdCharacter(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x5f ||
    code === 0x2d
  );
}

/**
 * Two spaces in a row, or any white space but a space: `/\s\s|[^\S ]/` with `\s` spelled out less a space
 * (the same answer; this one is three times faster on a request error's line, a loop slower still).
 */
const SPACES_TO_FOLD = /[\t-\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]| {2}/;

export function needsSpacesFolded(text: string): boolean {
  return SPACES_TO_FOLD.test(text);
}
