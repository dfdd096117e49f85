import { requiredLiterals } from './required-literals.js';

/**
 * The words a pattern cannot match without, or null where they cannot be trusted: its source is beyond
 * what requiredLiterals reads, or Unicode case folding would let a non-ASCII letter match an ASCII one
 * (`/k/iu` matches the Kelvin sign), which the pass's ASCII folding would not see.
 */
export function wordsOf(pattern: RegExp): string[] | null {
  if (pattern.ignoreCase && /[uv]/.test(pattern.flags)) return null;
  try {
    const required = requiredLiterals(pattern.source);
    return required.length > 0 && required.every((word) => ASCII_WORD.test(word)) ? required : null;
  } catch {
    return null;
  }
}

const ASCII_WORD = /^\p{ASCII}+$/u;

/**
 * False where the pattern cannot match the text: the text holds none of its words. For a pattern tested a
 * few times in a run, on text that seldom holds them (the failure categories' words, once a diagnosis):
 * V8 compiles a regex at its first test, which for a long case-insensitive list of phrases costs
 * hundreds of times what looking for its words does. The words and the text are lowered (`\n` at both
 * ends for `^` and `$`): an ASCII word's letters lower alike wherever they stand, so a text the pattern
 * matches always holds a lowered word.
 */
export function mayMatch(pattern: RegExp, text: string): boolean {
  let words = loweredWords.get(pattern);
  if (words === undefined) {
    words = wordsOf(pattern)?.map((word) => word.toLowerCase()) ?? null;
    loweredWords.set(pattern, words);
  }
  return words === null || holdsOne(words, text);
}

/** Whether the text holds one of the lowered words (the last text's lowered copy is kept). */
export function holdsOne(words: readonly string[], text: string): boolean {
  if (text !== lastText) {
    lastText = text;
    lastLowered = `\n${text.toLowerCase()}\n`;
  }
  const lowered = lastLowered;
  return words.some((word) => lowered.includes(word));
}

const loweredWords = new WeakMap<RegExp, string[] | null>();
let lastText = '';
let lastLowered = '\n\n';
