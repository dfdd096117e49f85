import { KNOWN_LITERALS, REFUSED_LITERALS } from './known-literals.js';

/**
 * The literals a regular expression cannot match without: for each of its top-level alternatives, one run
 * of fixed characters that every match of that alternative contains (its variants spelled out: `timed?
 * ?out` gives four). A search for these literals finds every line the expression matches, and maybe some
 * more: a superset that a byte automaton can look for without a backtracking engine.
 *
 * `^` and `$` become a newline: the searched text is whole lines, each after a newline and ending in one.
 * Anything this reader does not understand throws, so a new pattern can never be searched for wrongly.
 */
export function requiredLiterals(source: string): string[] {
  // The knowledge lists' patterns were read when Vigil was built (scripts/build-literals.mjs): reading
  // them here took 5 ms of a short log's run and 40 ms of a long one's.
  const known = KNOWN_LITERALS.get(source);
  if (known !== undefined) return [...known];
  const refused = REFUSED_LITERALS.get(source);
  if (refused !== undefined) throw new Error(refused);
  return readLiterals(source);
}

/** What requiredLiterals answers, read from the source itself (the build's table is written with this). */
export function readLiterals(source: string): string[] {
  const parser = new Parser(source);
  const alternatives = parser.parseAlternatives();
  parser.expectEnd();
  return [
    ...new Set(
      alternatives.flatMap((sequence) => {
        const best = readRuns(sequence).best;
        if (best === null)
          throw new Error(`cannot search for /${source}/ by its literals: an alternative has none`);
        return best;
      }),
    ),
  ];
}

/** The most variants a run may spell out: past this, the run ends and a new one starts. */
const MAX_VARIANTS = 256;
/** A class this large is as good as any character. */
const MAX_CLASS = 64;

type Atom =
  | { kind: 'chars'; chars: string[]; min: number; max: number }
  | { kind: 'group'; alternatives: Atom[][]; min: number; max: number }
  /** A character from a large or open set (`.`, `\d`, `[^x]`): it ends a run. */
  | { kind: 'wide'; min: number }
  /** Matches no character (`\b`, a lookaround): runs go on across it. */
  | { kind: 'empty' };

class Parser {
  private at = 0;
  constructor(private readonly source: string) {}

  expectEnd(): void {
    if (this.at < this.source.length) this.fail(`unexpected ${this.source[this.at] ?? ''}`);
  }

  parseAlternatives(): Atom[][] {
    const alternatives: Atom[][] = [this.parseSequence()];
    while (this.peek() === '|') {
      this.at++;
      alternatives.push(this.parseSequence());
    }
    return alternatives;
  }

  private parseSequence(): Atom[] {
    const atoms: Atom[] = [];
    for (;;) {
      const ch = this.peek();
      if (ch === undefined || ch === '|' || ch === ')') return atoms;
      const atom = this.parseAtom();
      atoms.push(atom.kind === 'empty' ? atom : this.parseQuantifier(atom));
    }
  }

  private parseAtom(): Atom {
    const ch = this.next();
    if (ch === '^' || ch === '$') return { kind: 'chars', chars: ['\n'], min: 1, max: 1 };
    if (ch === '.') return { kind: 'wide', min: 1 };
    if (ch === '[') return this.parseClass();
    if (ch === '(') return this.parseGroup();
    if (ch === '\\') return this.parseEscape();
    if ('*+?{'.includes(ch)) this.fail(`nothing to repeat before ${ch}`);
    return { kind: 'chars', chars: [ch], min: 1, max: 1 };
  }

  private parseGroup(): Atom {
    let lookaround = false;
    if (this.source.startsWith('?:', this.at)) this.at += 2;
    else if (/^\?<?[=!]/.test(this.source.slice(this.at, this.at + 3))) {
      lookaround = true;
      this.at += this.source[this.at + 1] === '<' ? 3 : 2;
    } else if (this.source.startsWith('?<', this.at)) this.at = this.source.indexOf('>', this.at) + 1;
    else if (this.peek() === '?') this.fail('an unknown group');
    const alternatives = this.parseAlternatives();
    if (this.next() !== ')') this.fail('an unclosed group');
    return lookaround ? { kind: 'empty' } : { kind: 'group', alternatives, min: 1, max: 1 };
  }

  private parseEscape(): Atom {
    const ch = this.next();
    if ('bB'.includes(ch)) return { kind: 'empty' };
    if ('dDsSwW'.includes(ch)) return { kind: 'wide', min: 1 };
    if (/[1-9k]/.test(ch)) this.fail('a back reference');
    return { kind: 'chars', chars: [this.escaped(ch)], min: 1, max: 1 };
  }

  /** The character an escape outside a class stands for, `ch` being the one after the backslash. */
  private escaped(ch: string): string {
    const named: Record<string, string> = { n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', '0': '\0' };
    if (named[ch] !== undefined) return named[ch];
    if (ch === 'x' || ch === 'u') {
      const digits = this.source.slice(this.at, this.at + (ch === 'x' ? 2 : 4));
      if (!/^[0-9a-fA-F]+$/.test(digits)) this.fail(`a \\${ch} escape`);
      this.at += digits.length;
      return String.fromCharCode(Number.parseInt(digits, 16));
    }
    if (/[A-Za-z]/.test(ch)) this.fail(`the escape \\${ch}`);
    return ch;
  }

  private parseClass(): Atom {
    if (this.peek() === '^') return this.skipClass();
    const chars = new Set<string>();
    for (;;) {
      let ch = this.next();
      if (ch === ']') break;
      if (ch === '\\') {
        const escape = this.next();
        if ('dDsSwWbB'.includes(escape)) return this.skipClass();
        ch = this.escaped(escape);
      }
      if (this.peek() === '-' && this.source[this.at + 1] !== ']') {
        this.at++;
        let last = this.next();
        if (last === '\\') last = this.escaped(this.next());
        for (let code = ch.charCodeAt(0); code <= last.charCodeAt(0); code++)
          chars.add(String.fromCharCode(code));
      } else chars.add(ch);
    }
    if (chars.size > MAX_CLASS) return { kind: 'wide', min: 1 };
    return { kind: 'chars', chars: [...chars], min: 1, max: 1 };
  }

  /** A class read as any character: its end is found and its content passed over. */
  private skipClass(): Atom {
    while (this.next() !== ']') if (this.source[this.at - 1] === '\\') this.at++;
    return { kind: 'wide', min: 1 };
  }

  private parseQuantifier(atom: Exclude<Atom, { kind: 'empty' }>): Atom {
    const ch = this.peek();
    let min = 1;
    let max = 1;
    if (ch === '?' || ch === '*' || ch === '+') {
      this.at++;
      [min, max] = ch === '?' ? [0, 1] : ch === '*' ? [0, Infinity] : [1, Infinity];
    } else if (ch === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.at));
      if (m === null) this.fail('a bad {n,m}');
      this.at += m[0].length;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
    } else return atom;
    if (this.peek() === '?') this.at++;
    if (atom.kind === 'wide') return { kind: 'wide', min: atom.min * min };
    return { ...atom, min, max };
  }

  private peek(): string | undefined {
    return this.source[this.at];
  }

  private next(): string {
    const ch = this.source[this.at++];
    if (ch === undefined) this.fail('an unexpected end');
    return ch;
  }

  private fail(what: string): never {
    throw new Error(`cannot search for /${this.source}/ by its literals: ${what} at ${this.at}`);
  }
}

/** Every string an atom matches once, or null when that is not a small fixed set. */
function spellOnce(atom: Atom): string[] | null {
  if (atom.kind === 'chars') return atom.chars;
  if (atom.kind !== 'group') return null;
  const spelled: string[] = [];
  for (const sequence of atom.alternatives) {
    let variants = [''];
    for (const part of sequence) {
      const extended = extend(variants, part);
      if (extended === null) return null;
      variants = extended;
    }
    spelled.push(...variants);
  }
  return spelled.length > MAX_VARIANTS ? null : spelled;
}

/** `variants` followed by every way `atom` matches, or null when that is not a small fixed set. */
function extend(variants: string[], atom: Atom): string[] | null {
  if (atom.kind === 'empty') return variants;
  if (atom.kind === 'wide' || atom.max > 4) return null;
  const once = spellOnce(atom);
  if (once === null) return null;
  const repeated = atom.min === 0 ? [''] : [];
  let current = [''];
  for (let count = 1; count <= atom.max; count++) {
    current = cross(current, once);
    if (current.length > MAX_VARIANTS) return null;
    if (count >= atom.min) repeated.push(...current);
  }
  const result = cross(variants, repeated);
  return result.length > MAX_VARIANTS ? null : result;
}

function cross(heads: string[], tails: string[]): string[] {
  return heads.flatMap((head) => tails.map((tail) => head + tail));
}

/**
 * The runs of fixed characters of one alternative, each spelled out, and the one to search for (`best`:
 * null when it has none): the run whose shortest variant has the most characters other than line ends (a
 * bare line end is every line), then the most in all (`Z$` is rarer than `-`). `trailing` is the run the
 * alternative ends in, which a group's alternatives hand on to the characters after the group.
 *
 * A group that cannot be spelled whole still gives two runs when it must match: its alternatives' own best
 * runs, one of which every match holds (`(?:PRTE|ORTE) ERROR: .+|ORTE_ERROR_LOG: .+`), and the runs they end
 * in, joined to what follows (`[A-Z]\w*(?:Error|Exception)): ` holds `Error: ` or `Exception: `): better words
 * than the `: ` or `] ` before the group, which nearly every error line holds.
 */
function readRuns(sequence: Atom[]): { best: string[] | null; trailing: string[] } {
  const runs: string[][] = [];
  let run: string[] = [''];
  const close = (): void => {
    runs.push(run);
    run = [''];
  };
  for (const atom of sequence) {
    const extended = extend(run, atom);
    if (extended !== null) {
      run = extended;
      continue;
    }
    close();
    if (atom.kind === 'group' && atom.min >= 1) {
      // The group matched at least once, and its last match ended in one of its alternatives' trailing runs.
      const inner = atom.alternatives.map(readRuns);
      const bests = inner.map((r) => r.best);
      if (bests.every((best) => best !== null)) runs.push([...new Set(bests.flat())]);
      const ends = [...new Set(inner.flatMap((r) => r.trailing))];
      if (ends.length <= MAX_VARIANTS) run = ends;
      continue;
    }
    // The atom cannot join the run: what it must match at least (its first character) may start a new one.
    const first = atom.kind === 'wide' || atom.kind === 'empty' || atom.min === 0 ? null : spellOnce(atom);
    if (first !== null) run = first;
    if (atom.kind !== 'empty' && atom.kind !== 'wide' && atom.max !== 1) close();
  }
  const trailing = run;
  close();
  const score = (variants: string[]): number =>
    Math.min(...variants.map((variant) => variant.replace(/\n/g, '').length * 1000 + variant.length));
  let best: string[] | null = null;
  for (const candidate of runs) {
    if (score(candidate) < 1000) continue;
    if (best === null || score(candidate) > score(best)) best = candidate;
  }
  return { best, trailing };
}
