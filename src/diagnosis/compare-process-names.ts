/**
 * Orders process names as `a.localeCompare(b, 'en', { numeric: true })` does (Worker_TP2 before Worker_TP10),
 * without ICU for the names engines write (letters, digits, `_`): the first collator a process builds
 * loads ICU's collation data, about 7 ms of a small diagnosis, for a sort of ten names. Other names go to
 * ICU itself.
 */
export function compareProcessNames(a: string, b: string): number {
  if (!PLAIN_NAME.test(a) || !PLAIN_NAME.test(b)) return collator().compare(a, b);
  const primary = comparePrimary(a, b);
  return primary !== 0 ? primary : compareCase(a, b);
}

// No digit run with a leading zero: ICU's numeric order has its own rules for those (07 against 7).
const PLAIN_NAME = /^(?:[A-Za-z_]|[1-9]\d{0,14}|0(?!\d))*$/;

/** ICU's root order at its first level: `_` before digits (by value), digits before letters (any case). */
function comparePrimary(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(j);
    if (isDigit(x) && isDigit(y)) {
      const endA = digitsEnd(a, i);
      const endB = digitsEnd(b, j);
      const difference = Number(a.slice(i, endA)) - Number(b.slice(j, endB));
      if (difference !== 0) return difference < 0 ? -1 : 1;
      i = endA;
      j = endB;
      continue;
    }
    const difference = rank(x) - rank(y);
    if (difference !== 0) return difference < 0 ? -1 : 1;
    i++;
    j++;
  }
  return i < a.length ? 1 : j < b.length ? -1 : 0;
}

/** Its third level, between names equal at the first: the first letter in other case, lower case first. */
function compareCase(a: string, b: string): number {
  for (let i = 0; i < a.length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return isUpper(x) ? 1 : -1;
  }
  return 0;
}

/** `_` 0, a digit 1 (runs of digits are compared by value before this), a letter 2 + its place. */
function rank(code: number): number {
  if (code === 95) return 0;
  if (isDigit(code)) return 1;
  return 2 + ((code | 32) - 97);
}

function digitsEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length && isDigit(text.charCodeAt(end))) end++;
  return end;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isUpper(code: number): boolean {
  return code >= 65 && code <= 90;
}

// Built at the first name that needs it: building it loads ICU (about 7 ms), and `localeCompare` with
// options builds one per comparison (a quarter of a diagnosis of 3,200 processes).
let built: Intl.Collator | null = null;
const collator = (): Intl.Collator => (built ??= new Intl.Collator('en', { numeric: true }));
