/** Finds the first of many literals in a run of lines, reading each byte once. */
export interface LiteralSearch {
  /**
   * Where the first literal found in `bytes[from, to)` ends (the index of its last byte), or -1. `from`
   * must be a line's start: a literal that begins with a newline may match there.
   */
  find(bytes: Uint8Array, from: number, to: number): number;
}

/**
 * An Aho–Corasick automaton over bytes, ASCII letters folded: one table step per byte whatever the number
 * of literals, where V8's regex engine tries each alternative at each position (a hundred case-folded
 * words ran at 13 s per GB, this at about 2).
 */
export function compileLiteralSearch(literals: readonly string[]): LiteralSearch {
  const words = literals.map((literal) => toBytes(literal.toLowerCase()));
  if (words.length === 0 || words.some((word) => word.length === 0)) {
    throw new Error('a literal search needs literals, none of them empty');
  }
  const { table, accepting, lineStart } = buildTable(words);
  return {
    find(bytes, from, to) {
      let state = lineStart;
      for (let i = from; i < to; i++) {
        state = table[(state << 8) | (bytes[i] as number)] as number;
        if (state >= accepting) return i;
      }
      return -1;
    },
  };
}

function toBytes(literal: string): number[] {
  const bytes: number[] = [];
  for (const ch of literal) {
    const code = ch.charCodeAt(0);
    // Folding non-ASCII letters would take Unicode's case rules on UTF-8 bytes: not needed, not done.
    if (code > 0x7f) throw new Error(`a literal search takes ASCII literals: ${JSON.stringify(literal)}`);
    bytes.push(code);
  }
  return bytes;
}

const fold = (byte: number): number => (byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte);

/**
 * The trie of the literals with its failure links resolved into a full transition table (state × byte).
 * States that complete a literal are numbered last, so one comparison tells a hit; the search stops there,
 * so their own transitions are never taken.
 */
function buildTable(words: number[][]): { table: Uint16Array; accepting: number; lineStart: number } {
  const children = [new Map<number, number>()];
  const ends: boolean[] = [false];
  for (const word of words) {
    let state = 0;
    for (const byte of word) {
      let next = children[state]?.get(byte);
      if (next === undefined) {
        next = children.length;
        children.push(new Map<number, number>());
        ends.push(false);
        children[state]?.set(byte, next);
      }
      state = next;
    }
    ends[state] = true;
  }
  const count = children.length;
  if (count > 0xffff) throw new Error('too many literals for one search');
  const delta = new Int32Array(count * 256);
  const failure = new Int32Array(count);
  const order: number[] = [];
  for (let byte = 0; byte < 256; byte++) {
    const child = children[0]?.get(fold(byte));
    delta[byte] = child ?? 0;
    // An upper-case byte leads where its lower case does: each child is queued once.
    if (child !== undefined && byte === fold(byte)) order.push(child);
  }
  // Breadth first: a state's failure link is shallower, so its row is complete when it is needed.
  for (let head = 0; head < order.length; head++) {
    const state = order[head] as number;
    const link = failure[state] as number;
    if (ends[link]) ends[state] = true;
    for (let byte = 0; byte < 256; byte++) {
      const child = children[state]?.get(fold(byte));
      const fallback = delta[link * 256 + byte] as number;
      delta[state * 256 + byte] = child ?? fallback;
      if (child !== undefined && byte === fold(byte)) {
        failure[child] = fallback;
        order.push(child);
      }
    }
  }
  const numbering = renumber(ends);
  const table = new Uint16Array(count * 256);
  for (let state = 0; state < count; state++) {
    const row = (numbering[state] as number) * 256;
    for (let byte = 0; byte < 256; byte++) {
      table[row + byte] = numbering[delta[state * 256 + byte] as number] as number;
    }
  }
  const accepting = numbering.reduce((first, n, state) => (ends[state] ? Math.min(first, n) : first), count);
  return { table, accepting, lineStart: numbering[delta[0x0a] as number] as number };
}

/** New numbers for the states: those that complete a literal last. */
function renumber(ends: boolean[]): number[] {
  const numbering: number[] = new Array<number>(ends.length);
  let next = 0;
  for (let state = 0; state < ends.length; state++) if (!ends[state]) numbering[state] = next++;
  for (let state = 0; state < ends.length; state++) if (ends[state]) numbering[state] = next++;
  return numbering;
}
