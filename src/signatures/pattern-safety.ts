/**
 * A small static check that rejects regular expressions prone to catastrophic backtracking, so a user's
 * signature cannot hang the tool. It is deliberately conservative: a pattern it rejects can always be
 * rewritten (drop the repeated group, make alternatives start differently). It looks for
 *  - a repeated group that itself contains a repeat, one of them unbounded: `(a+)+`, `(.*a){20}`;
 *  - a repeated group whose alternatives can start with the same character, or that can match nothing:
 *    `(a|a)*`, `(a?){25}`;
 *  - three or more unbounded repeats in a row over overlapping characters: `\s*.*\S*`.
 * Polynomial cases that remain are bounded by the engine's cap on text length.
 */

/** Which characters an atom can match: a bit per ASCII code plus one for everything beyond. */
interface CharSet {
  ascii: boolean[];
  other: boolean;
}

type Node =
  | { kind: 'chars'; set: CharSet; start: number; end: number }
  | { kind: 'empty'; start: number; end: number }
  | { kind: 'group'; alternatives: Node[][]; start: number; end: number }
  | { kind: 'repeat'; body: Node; min: number; max: number; start: number; end: number };

const MAX_PATTERN_LENGTH = 2000;

function emptySet(): CharSet {
  return { ascii: new Array<boolean>(128).fill(false), other: false };
}
function fullSet(): CharSet {
  return { ascii: new Array<boolean>(128).fill(true), other: true };
}
function setOf(test: (code: number) => boolean, other: boolean): CharSet {
  const set = emptySet();
  for (let code = 0; code < 128; code++) set.ascii[code] = test(code);
  set.other = other;
  return set;
}
function union(a: CharSet, b: CharSet): CharSet {
  return { ascii: a.ascii.map((bit, i) => bit || b.ascii[i] === true), other: a.other || b.other };
}
function complement(a: CharSet): CharSet {
  return { ascii: a.ascii.map((bit) => !bit), other: true };
}
function overlaps(a: CharSet, b: CharSet): boolean {
  return (a.other && b.other) || a.ascii.some((bit, i) => bit && b.ascii[i] === true);
}
function foldCase(a: CharSet): CharSet {
  const set = { ascii: [...a.ascii], other: a.other };
  for (let code = 65; code <= 90; code++) {
    const either = a.ascii[code] === true || a.ascii[code + 32] === true;
    set.ascii[code] = either;
    set.ascii[code + 32] = either;
  }
  return set;
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isWord = (c: number): boolean =>
  isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13);

/** The set for a class escape (`\d`, `\W`, ...) or null when the letter is not one. */
function classEscape(letter: string): CharSet | null {
  switch (letter) {
    case 'd':
      return setOf(isDigit, false);
    case 'D':
      return complement(setOf(isDigit, false));
    case 'w':
      return setOf(isWord, false);
    case 'W':
      return complement(setOf(isWord, false));
    case 's':
      return setOf(isSpace, true);
    case 'S':
      return complement(setOf(isSpace, false));
    default:
      return null;
  }
}

const SINGLE_ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11, '0': 0 };

function singleChar(code: number): CharSet {
  return code < 128 ? setOf((c) => c === code, false) : { ascii: emptySet().ascii, other: true };
}

/** A recursive-descent reader for the subset of JavaScript regex syntax that matters here; never throws. */
class PatternReader {
  private pos = 0;
  constructor(
    private readonly source: string,
    private readonly dotAll: boolean,
  ) {}

  read(): Node[][] {
    const alternatives = this.alternation();
    return alternatives;
  }

  private peek(offset = 0): string {
    return this.source[this.pos + offset] ?? '';
  }

  private alternation(): Node[][] {
    const alternatives: Node[][] = [this.sequence()];
    while (this.peek() === '|') {
      this.pos++;
      alternatives.push(this.sequence());
    }
    return alternatives;
  }

  private sequence(): Node[] {
    const nodes: Node[] = [];
    while (this.pos < this.source.length && this.peek() !== '|' && this.peek() !== ')') {
      const start = this.pos;
      const atom = this.atom();
      nodes.push(this.quantified(atom, start));
    }
    return nodes;
  }

  private quantified(atom: Node, start: number): Node {
    let min: number;
    let max: number;
    const c = this.peek();
    if (c === '*' || c === '+' || c === '?') {
      this.pos++;
      [min, max] = c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
    } else if (c === '{') {
      const found = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.pos));
      if (found === null) return atom;
      this.pos += found[0].length;
      min = Number(found[1]);
      max = found[2] === undefined ? min : found[3] === '' ? Infinity : Number(found[3]);
    } else {
      return atom;
    }
    if (this.peek() === '?') this.pos++;
    return { kind: 'repeat', body: atom, min, max, start, end: this.pos };
  }

  private atom(): Node {
    const start = this.pos;
    const c = this.peek();
    this.pos++;
    switch (c) {
      case '(':
        return this.group(start);
      case '[':
        return { kind: 'chars', set: this.charClass(), start, end: this.pos };
      case '.':
        return {
          kind: 'chars',
          set: this.dotAll ? fullSet() : complement(singleChar(10)),
          start,
          end: this.pos,
        };
      case '^':
      case '$':
        return { kind: 'empty', start, end: this.pos };
      case '\\':
        return this.escape(start);
      default:
        return { kind: 'chars', set: singleChar(c.charCodeAt(0)), start, end: this.pos };
    }
  }

  private group(start: number): Node {
    let lookaround = false;
    if (this.peek() === '?') {
      const rest = this.source.slice(this.pos);
      const named = /^\?<[A-Za-z_$][\w$]*>/.exec(rest);
      if (named !== null) this.pos += named[0].length;
      else if (rest.startsWith('?<=') || rest.startsWith('?<!'))
        [this.pos, lookaround] = [this.pos + 3, true];
      else if (rest.startsWith('?=') || rest.startsWith('?!')) [this.pos, lookaround] = [this.pos + 2, true];
      else if (rest.startsWith('?:')) this.pos += 2;
    }
    const alternatives = this.alternation();
    if (this.peek() === ')') this.pos++;
    const group: Node = { kind: 'group', alternatives, start, end: this.pos };
    // A lookaround consumes nothing, but what it holds is still checked.
    return lookaround ? { kind: 'repeat', body: group, min: 0, max: 0, start, end: this.pos } : group;
  }

  private escape(start: number): Node {
    const letter = this.peek();
    this.pos++;
    const cls = classEscape(letter);
    if (cls !== null) return { kind: 'chars', set: cls, start, end: this.pos };
    if (letter === 'b' || letter === 'B') return { kind: 'empty', start, end: this.pos };
    if (/[1-9]/.test(letter) || letter === 'k' || letter === 'p' || letter === 'P') {
      // Backreferences and Unicode properties: assume they can match anything.
      const tail = /^(\d*|<[^>]*>|\{[^}]*\})/.exec(this.source.slice(this.pos));
      this.pos += tail?.[0].length ?? 0;
      return { kind: 'chars', set: fullSet(), start, end: this.pos };
    }
    return { kind: 'chars', set: singleChar(this.escapedCode(letter)), start, end: this.pos };
  }

  /** The code of a single-character escape whose letter has been read. */
  private escapedCode(letter: string): number {
    const hex = letter === 'x' ? 2 : letter === 'u' ? 4 : 0;
    if (hex > 0) {
      const digits = this.source.slice(this.pos, this.pos + hex);
      if (/^[0-9a-fA-F]+$/.test(digits) && digits.length === hex) {
        this.pos += hex;
        return parseInt(digits, 16);
      }
    }
    return SINGLE_ESCAPES[letter] ?? letter.charCodeAt(0);
  }

  private charClass(): CharSet {
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.pos++;
    }
    let set = emptySet();
    let first = true;
    while (this.pos < this.source.length && (this.peek() !== ']' || first)) {
      first = false;
      const low = this.classMember();
      if (low.code !== null && this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== '') {
        this.pos++;
        const high = this.classMember();
        const [from, to] = [low.code, high.code ?? low.code];
        set = union(
          set,
          setOf((c) => c >= from && c <= to, to >= 128),
        );
      } else {
        set = union(set, low.set);
      }
    }
    this.pos++; // ']'
    return negated ? complement(set) : set;
  }

  private classMember(): { set: CharSet; code: number | null } {
    const c = this.peek();
    this.pos++;
    if (c !== '\\') return { set: singleChar(c.charCodeAt(0)), code: c.charCodeAt(0) };
    const letter = this.peek();
    this.pos++;
    const cls = classEscape(letter);
    if (cls !== null) return { set: cls, code: null };
    if (letter === 'p' || letter === 'P') {
      const tail = /^\{[^}]*\}/.exec(this.source.slice(this.pos));
      this.pos += tail?.[0].length ?? 0;
      return { set: fullSet(), code: null };
    }
    const code = letter === 'b' ? 8 : this.escapedCode(letter);
    return { set: singleChar(code), code };
  }
}

function nullable(node: Node): boolean {
  switch (node.kind) {
    case 'chars':
      return false;
    case 'empty':
      return true;
    case 'group':
      return node.alternatives.some((alternative) => alternative.every(nullable));
    case 'repeat':
      return node.min === 0 || nullable(node.body);
  }
}

/** The characters a node's match can start with. */
function firstChars(nodes: Node[]): CharSet {
  let set = emptySet();
  for (const node of nodes) {
    set = union(set, firstOf(node));
    if (!nullable(node)) break;
  }
  return set;
}
function firstOf(node: Node): CharSet {
  switch (node.kind) {
    case 'chars':
      return node.set;
    case 'empty':
      return emptySet();
    case 'group':
      return node.alternatives.map(firstChars).reduce(union, emptySet());
    case 'repeat':
      return node.max === 0 ? emptySet() : firstOf(node.body);
  }
}
/** Every character a node's match can contain. */
function allChars(node: Node): CharSet {
  switch (node.kind) {
    case 'chars':
      return node.set;
    case 'empty':
      return emptySet();
    case 'group':
      return node.alternatives.flat().map(allChars).reduce(union, emptySet());
    case 'repeat':
      return node.max === 0 ? emptySet() : allChars(node.body);
  }
}

function containsRepeat(node: Node, unboundedOnly: boolean): Node | null {
  switch (node.kind) {
    case 'chars':
    case 'empty':
      return null;
    case 'group':
      for (const child of node.alternatives.flat()) {
        const found = containsRepeat(child, unboundedOnly);
        if (found !== null) return found;
      }
      return null;
    case 'repeat':
      if (node.max > 1 && (!unboundedOnly || node.max === Infinity)) return node;
      return containsRepeat(node.body, unboundedOnly);
  }
}

/**
 * Reasons a pattern is unsafe to run on untrusted text; empty when it is fine.
 * `source` and `flags` are a RegExp's; the caller has already checked that it compiles.
 */
export function findBacktrackingRisks(source: string, flags = ''): string[] {
  if (source.length > MAX_PATTERN_LENGTH) {
    return [`it is ${source.length} characters long; at most ${MAX_PATTERN_LENGTH} are allowed`];
  }
  const caseless = flags.includes('i');
  const quote = (node: Node): string => `\`${source.slice(node.start, node.end)}\``;
  const risks: string[] = [];
  const chars = (set: CharSet): CharSet => (caseless ? foldCase(set) : set);

  const visitSequence = (nodes: Node[]): void => {
    let run: Node[] = [];
    for (const node of nodes) {
      const previous = run[run.length - 1];
      const unbounded = node.kind === 'repeat' && node.max === Infinity;
      if (unbounded && previous !== undefined && overlaps(chars(allChars(previous)), chars(allChars(node)))) {
        run.push(node);
      } else {
        run = unbounded ? [node] : [];
      }
      if (run.length === 3) {
        risks.push(
          `${quote(run[0] ?? node)} … ${quote(node)} are three unbounded repeats in a row over the same characters`,
        );
      }
      visit(node);
    }
  };
  const visit = (node: Node): void => {
    if (node.kind === 'group') {
      node.alternatives.forEach(visitSequence);
      return;
    }
    if (node.kind !== 'repeat') return;
    if (node.max > 1) {
      const inner = containsRepeat(node.body, node.max !== Infinity);
      if (inner !== null) {
        risks.push(`${quote(node)} repeats ${quote(inner)}, itself a repeat (nested quantifiers)`);
      } else if (nullable(node.body)) {
        risks.push(`${quote(node)} repeats something that can match nothing`);
      } else if (node.body.kind === 'group' && node.body.alternatives.length > 1) {
        const starts = node.body.alternatives.map((alternative) => chars(firstChars(alternative)));
        const clash = starts.some((a, i) => starts.slice(i + 1).some((b) => overlaps(a, b)));
        if (clash) {
          risks.push(`${quote(node)} repeats alternatives that can start with the same character`);
        }
      }
    }
    visit(node.body);
  };

  const alternatives = new PatternReader(source, flags.includes('s')).read();
  alternatives.forEach(visitSequence);
  return risks;
}
