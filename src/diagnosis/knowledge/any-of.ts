import { requiredLiterals } from '../search/required-literals.js';
import { compileWordSets, MAX_WORD_SETS, type WordSets } from '../search/word-sets.js';

/**
 * One test for a list of patterns. V8 runs one alternation far faster than many regexes in turn, and
 * the knowledge lists are tested on every line that may matter; patterns are grouped by the flags that
 * change what their source means, so each keeps its meaning.
 *
 * Most lines hold none of the fixed words a list cannot match without (requiredLiterals), so the lists'
 * words are looked for first, all lists in one pass over the line (search/word-sets.ts), and a list's
 * alternation runs only when one of its words is there: a long alternation costs microseconds a line,
 * the pass a fraction of one for every list together, and a regex that never runs is never compiled. A
 * pattern whose words cannot be read off its source is tested on every line, as before.
 */
export function anyOf(patterns: readonly RegExp[]): (text: string) => boolean {
  const gated: RegExp[] = [];
  const always: RegExp[] = [];
  const words: string[] = [];
  for (const pattern of patterns) {
    const required = wordsOf(pattern);
    if (required === null) always.push(pattern);
    else {
      gated.push(pattern);
      words.push(...required);
    }
  }
  const testAlways = alternationOf(always);
  const testGated = alternationOf(gated);
  const bit = testGated === null ? 0 : register(words);
  if (bit === -1) {
    // More lists than one mask holds: this one goes without the pass.
    const all = alternationOf(patterns);
    return (text) => all !== null && all(text);
  }
  return (text) =>
    (testAlways !== null && testAlways(text)) ||
    (testGated !== null && (maskOf(text) & bit) !== 0 && testGated(text));
}

/**
 * The words a pattern cannot match without, or null where they cannot be trusted: its source is beyond
 * what requiredLiterals reads, or Unicode case folding would let a non-ASCII letter match an ASCII one
 * (`/k/iu` matches the Kelvin sign), which the pass's ASCII folding would not see.
 */
function wordsOf(pattern: RegExp): string[] | null {
  if (pattern.ignoreCase && /[uv]/.test(pattern.flags)) return null;
  try {
    const required = requiredLiterals(pattern.source);
    return required.length > 0 && required.every(isAsciiWord) ? required : null;
  } catch {
    return null;
  }
}

function isAsciiWord(word: string): boolean {
  if (word.length === 0) return false;
  for (let i = 0; i < word.length; i++) if (word.charCodeAt(i) > 0x7f) return false;
  return true;
}

function alternationOf(patterns: readonly RegExp[]): ((text: string) => boolean) | null {
  const groups = new Map<string, string[]>();
  for (const p of patterns) {
    const flags = p.flags.replace(/[gyd]/g, '');
    groups.set(flags, [...(groups.get(flags) ?? []), `(?:${p.source})`]);
  }
  const regexes = [...groups].map(([flags, sources]) => new RegExp(sources.join('|'), flags));
  if (regexes.length === 0) return null;
  return (text) => regexes.some((regex) => regex.test(text));
}

// The lists register their words as their modules load; the pass is built at the first test, again if a
// list came after it.
const registered: string[][] = [];
let built: WordSets | null = null;

function register(words: string[]): number {
  if (registered.length >= MAX_WORD_SETS) return -1;
  registered.push(words);
  built = null;
  lastMask = -1;
  otherMask = -1;
  return 1 << (registered.length - 1);
}

// The same line is asked of by several lists in a row: its mask is kept for the next question. Two
// entries, because the raw line and its message after the prefix are asked of in turn.
let lastText = '';
let lastMask = -1;
let otherText = '';
let otherMask = -1;

function maskOf(text: string): number {
  if (text === lastText && lastMask !== -1) return lastMask;
  if (text === otherText && otherMask !== -1) {
    [lastText, lastMask, otherText, otherMask] = [otherText, otherMask, lastText, lastMask];
    return lastMask;
  }
  const mask = (built ??= compileWordSets(registered)).maskOf(text);
  otherText = lastText;
  otherMask = lastMask;
  lastText = text;
  lastMask = mask;
  return mask;
}
