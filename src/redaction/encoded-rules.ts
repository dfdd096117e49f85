import { REDACTED, type Rewrite } from './token-rules.js';

/**
 * Secrets inside an encoding the plain rules cannot see through: percent-encoding (`HF_TOKEN%3Dhf_...`,
 * `wJalr...%2FK7MDENG...` in a URL) and base64 (`echo aGZfQWJj... | base64 -d`, a config blob). Each run
 * is decoded once, the plain rules run on the decoded text, and only where they find something is the run
 * rewritten. Linear: each run is found by a regex anchored at its start and decoded in one pass.
 */

// A run of URL characters holding at least one `%XX`: a whole URL, a query value, a form body.
const URL_RUN = /(?<![^\s'"<>`])[^\s'"<>`]+/g;
const PERCENT_BYTE = /%[0-9A-Fa-f]{2}/;
const PERCENT_BYTES = /(?:%[0-9A-Fa-f]{2})+/g;
// Characters that were surely encoded: written back encoded, so decoding never adds a space or a control.
const NEEDS_ENCODING = /[^\x21-\x24\x26-\x7e]/g;

// base64 or base64url, long enough to hold a credential (`password=x1` is 16 characters encoded).
const BASE64_RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{16,}={0,2}/g;

/** `%XX` sequences as UTF-8 bytes; one that is not valid UTF-8 becomes U+FFFD and matches nothing. */
function decodePercent(run: string): string {
  try {
    return decodeURIComponent(run);
  } catch {
    // A stray `%` or bytes that are not UTF-8: decode each sequence on its own.
    return run.replace(PERCENT_BYTES, (bytes) =>
      Buffer.from(bytes.replaceAll('%', ''), 'hex').toString('utf8'),
    );
  }
}

function encodeUnsafe(text: string): string {
  return text.replace(NEEDS_ENCODING, (char) =>
    [...Buffer.from(char, 'utf8')]
      .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
      .join(''),
  );
}

/**
 * Whether the plain rules find anything in any of `texts`. One pass over them all, a line each: most text
 * holds no secret, and a call per short run would cost the rules' fixed price thousands of times.
 */
export function findsAny(texts: readonly string[], plain: Rewrite): boolean {
  const all = texts.join('\n');
  return texts.length > 0 && plain(all) !== all;
}

/** Percent-encoded runs with a secret inside: the decoded run, redacted, encoded again where it must be. */
export function redactPercentEncoded(text: string, plain: Rewrite): string {
  if (!PERCENT_BYTE.test(text)) return text;
  const decoded: string[] = [];
  URL_RUN.lastIndex = 0;
  for (let run = URL_RUN.exec(text); run !== null; run = URL_RUN.exec(text)) {
    if (PERCENT_BYTE.test(run[0])) decoded.push(decodePercent(run[0]));
  }
  if (!findsAny(decoded, plain)) return text;
  return text.replace(URL_RUN, (run: string) => {
    if (!PERCENT_BYTE.test(run)) return run;
    const plainRun = decodePercent(run);
    const redacted = plain(plainRun);
    return redacted === plainRun ? run : encodeUnsafe(redacted);
  });
}

/** Whether every byte is printable ASCII or a tab, newline or carriage return: decoded text, not binary. */
function isText(bytes: Uint8Array): boolean {
  for (const byte of bytes) {
    if ((byte < 0x20 || byte > 0x7e) && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return false;
  }
  return true;
}

/** base64 runs that decode to text with a secret in it: the whole run becomes the marker. */
export function redactBase64(text: string, plain: Rewrite): string {
  const decoded = new Map<string, string>();
  BASE64_RUN.lastIndex = 0;
  for (let match = BASE64_RUN.exec(text); match !== null; match = BASE64_RUN.exec(text)) {
    const bytes = Buffer.from(match[0], 'base64');
    if (bytes.length >= 8 && isText(bytes)) decoded.set(match[0], bytes.toString('latin1'));
  }
  if (!findsAny([...decoded.values()], plain)) return text;
  return text.replace(BASE64_RUN, (run: string) => {
    const inner = decoded.get(run);
    return inner === undefined || plain(inner) === inner ? run : REDACTED;
  });
}
