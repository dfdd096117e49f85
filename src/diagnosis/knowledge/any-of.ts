import { holdsOne, wordsOf } from '../search/pattern-words.js';
import { PASS_PLAN } from '../search/word-pass-plan.js';
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
  const all = alternationOf(patterns);
  if (all === null) return () => false;
  const list: Registered = { patterns, always: null, gated: null };
  const index = registered.push(list) - 1;
  built = null;
  lastMask = -1;
  otherMask = -1;
  return (text) => {
    // A short log is over before the pass pays for its words and its table: it runs the alternation.
    if (asked < PASS_AFTER) {
      asked++;
      return all(text);
    }
    if (built === null) buildPass();
    if (index >= MAX_WORD_SETS) return all(text);
    return (
      (list.always !== null && list.always(text)) ||
      (list.gated !== null && (maskOf(text) & (1 << index)) !== 0 && list.gated(text))
    );
  };
}

/** Every pattern of every list, as the build reads their literals (scripts/build-literals.mjs). */
export function listedPatterns(): RegExp[] {
  return registered.flatMap((list) => list.patterns);
}

/** Whether the pass answers now: its words are looked for first (the block searches may leave it to it). */
export function passAnswers(): boolean {
  return asked >= PASS_AFTER;
}

/** Questions asked of all the lists before their words are looked for first (a few thousand lines). */
export const PASS_AFTER = 20_000;

/**
 * From now on the pass answers, however few questions were asked: a log known to be long pays for it many
 * times over. Switching before the first lines are compiled hot also spares compiling them twice: V8's
 * optimizing compiler drops the code every list's test was inlined into once that test calls another
 * function (the pass in place of the alternation), and on a 1 GB journal that was a third of its work.
 */
export function answerByPass(): void {
  asked = Math.max(asked, PASS_AFTER);
}
/**
 * A word is looked for by its last this many characters: a part of a word a pattern cannot match without
 * is one too, and short words keep the table small. The ends of the knowledge lists' phrases tell more than
 * their starts (`error in`, `failed t`): on request-error lines the lists' alternations run 2.5 times a
 * line with the last 12, 4.2 with the first 8, 2.3 with whole words (twice the table).
 */
const WORD_LENGTH = 12;

interface Registered {
  patterns: readonly RegExp[];
  /** The list's patterns whose words cannot be read off: tested on every line. */
  always: ((text: string) => boolean) | null;
  gated: ((text: string) => boolean) | null;
}

const registered: Registered[] = [];
let built: WordSets | null = null;
let asked = 0;

/** Reads every list's words and builds the one pass over them (again if a list came after it). */
function buildPass(): void {
  const sets: string[][] = [];
  registered.forEach((list, index) => {
    if (index >= MAX_WORD_SETS) return;
    const { gated, always, words } = splitList(list.patterns);
    // The pass has looked for the gated patterns' words already.
    list.always = alternationOf(always, false);
    list.gated = alternationOf(gated, false);
    // The list's bit is its place in the pass.
    sets.push(words);
  });
  // Laid out from the plan the build wrote where the lists are those it was written for (always, but
  // for a list registered later, or a build whose plan is stale: then found from the words, as alike).
  built = compileWordSets(sets, PASS_PLAN);
  readWhole = '';
  lastMask = -1;
  otherMask = -1;
}

/** A list's patterns whose words are looked for first, those tested on every line, and the words. */
function splitList(patterns: readonly RegExp[]): { gated: RegExp[]; always: RegExp[]; words: string[] } {
  const gated: RegExp[] = [];
  const always: RegExp[] = [];
  const words = new Set<string>();
  for (const pattern of patterns) {
    const required = wordsOf(pattern);
    if (required === null) always.push(pattern);
    else {
      gated.push(pattern);
      for (const word of required) words.add(word.slice(-WORD_LENGTH));
    }
  }
  return { gated, always, words: [...words] };
}

/** The word sets of the pass, as buildPass reads them (scripts/build-literals.mjs writes their plan). */
export function passWordSets(): string[][] {
  return registered.slice(0, MAX_WORD_SETS).map((list) => splitList(list.patterns).words);
}

/**
 * A list's test. Its alternation is made at its ONE_BY_ONE-th question, not before: until then the patterns
 * are tested one by one, each compiled by V8 at its own first test. Irregexp compiles a long alternation
 * in far more than the sum of its parts (the 81 failure lines' 6,400 characters: 23–46 ms at their first
 * test and 4–9 more at the second, where the 81 patterns tested one by one took 5–10 ms to compile, load
 * 3–6), and a short log asks a list a few dozen times. No pattern of the lists holds a backreference, a
 * named group or the g, y or d flag, so one pattern matching is the alternation matching. `lookFirst`:
 * until then each pattern's words are looked for before it runs (Gated, below); not where the pass has.
 */
export function alternationOf(
  patterns: readonly RegExp[],
  lookFirst = true,
): ((text: string) => boolean) | null {
  if (patterns.length === 0) return null;
  // A pattern that is its list alone is tested as it is: shares its compiled code with its other users.
  const own = patterns.map((p) =>
    /[gyd]/.test(p.flags) ? new RegExp(p.source, p.flags.replace(/[gyd]/g, '')) : p,
  );
  if (own.length === 1) {
    const only = own[0] as RegExp;
    return (text) => only.test(text);
  }
  let regexes: RegExp[] | null = null;
  let gated: Gated[] | null = null;
  let asked = 0;
  return (text) => {
    if (regexes === null) {
      if (asked < ONE_BY_ONE) {
        asked++;
        gated ??= own.map((regex) => gatedOf(regex, lookFirst));
        return gated.some(
          (entry) => (entry.words === null || mayHold(entry, text)) && entry.regex.test(text),
        );
      }
      regexes = joined(patterns);
    }
    return regexes.some((regex) => regex.test(text));
  };
}

/**
 * A list's pattern before its alternation is made, run only on a text holding one of its words while
 * looking for them costs less than compiling it: most of a list's patterns never match a given log, and
 * a regex that never runs is never compiled (V8 compiles one at its first test, and again to machine code
 * at its second). A word looked for costs about what a short pattern's test does once compiled, so each
 * pattern's words are looked for at most LOOKS times in all (a list asked a few times, in a short log);
 * then, or once a text holds one (it is compiled by then), the pattern runs on every text.
 */
interface Gated {
  regex: RegExp;
  /** Lowered (search/pattern-words.ts); null: run on every text. */
  words: string[] | null;
  looks: number;
}

const LOOKS = 64;

function gatedOf(regex: RegExp, lookFirst: boolean): Gated {
  const words = lookFirst ? wordsOf(regex) : null;
  return {
    regex,
    words: words === null || words.length > LOOKS ? null : words.map((word) => word.toLowerCase()),
    looks: 0,
  };
}

function mayHold(entry: Gated, text: string): boolean {
  const words = entry.words as string[];
  entry.looks += words.length;
  const held = holdsOne(words, text);
  if (held || entry.looks >= LOOKS) entry.words = null;
  return held;
}

/** Questions a list's patterns answer one by one before their alternation is made. */
const ONE_BY_ONE = 500;

function joined(patterns: readonly RegExp[]): RegExp[] {
  const groups = new Map<string, string[]>();
  for (const p of patterns) {
    const flags = p.flags.replace(/[gyd]/g, '');
    groups.set(flags, [...(groups.get(flags) ?? []), `(?:${p.source})`]);
  }
  return [...groups].map(([flags, sources]) => new RegExp(sources.join('|'), flags));
}

// The same line is asked of by several lists in a row: its mask is kept for the next question. Two
// entries, because the raw line and its message after the prefix are asked of in turn.
let lastText = '';
let lastMask = -1;
let otherText = '';
let otherMask = -1;
/** The last text the pass read whole: a message that ends it is read from its prefix's end. */
let readWhole = '';

function maskOf(text: string): number {
  if (text === lastText && lastMask !== -1) return lastMask;
  if (text === otherText && otherMask !== -1) return otherMask;
  const pass = built as WordSets;
  let mask: number;
  if (readWhole.length > text.length && readWhole.endsWith(text)) {
    mask = pass.maskOfTail(readWhole, readWhole.length - text.length);
  } else {
    mask = pass.maskOf(text);
    readWhole = text;
  }
  otherText = lastText;
  otherMask = lastMask;
  lastText = text;
  lastMask = mask;
  return mask;
}
