/** A trie of byte strings: each state's children by byte, and for each state what ends there. */
export interface Trie {
  children: Map<number, number>[];
  /** What the words ending at each state add (a bit per set of words, or 1 for "a word ends here"). */
  ends: number[];
}

/** The trie of `words`, each word's end marked with `endOf(index)` ORed in. */
export function buildTrie(words: readonly number[][], endOf: (index: number) => number): Trie {
  const children = [new Map<number, number>()];
  const ends = [0];
  words.forEach((word, index) => {
    let state = 0;
    for (const byte of word) {
      let next = children[state]?.get(byte);
      if (next === undefined) {
        next = children.length;
        children.push(new Map<number, number>());
        ends.push(0);
        children[state]?.set(byte, next);
      }
      state = next;
    }
    ends[state] = (ends[state] as number) | endOf(index);
  });
  return { children, ends };
}

/** An ASCII word as bytes, its letters lowered (the searches fold ASCII case); anything else throws. */
export function asciiBytes(word: string, what: string): number[] {
  // Read by index, not by a string iterator over toLowerCase's copy: built at a long log's start from about
  // a thousand words, before any of this is compiled, that took 5-8 ms.
  const bytes: number[] = [];
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    // Past ASCII, the old way decides (a letter whose lower case is ASCII, the Kelvin sign, reads as `k`).
    if (code > 0x7f) return lowerWithUnicode(word, what);
    bytes.push(code >= 0x41 && code <= 0x5a ? code + 0x20 : code);
  }
  return bytes;
}

/**
 * toLowerCase's copy, which may turn a non-ASCII letter to ASCII. Folding other non-ASCII letters would
 * take Unicode's case rules on UTF-8 bytes: not needed, not done.
 */
function lowerWithUnicode(word: string, what: string): number[] {
  const bytes: number[] = [];
  for (const ch of word.toLowerCase()) {
    const code = ch.charCodeAt(0);
    if (code > 0x7f) throw new Error(`${what} takes ASCII words: ${JSON.stringify(word)}`);
    bytes.push(code);
  }
  return bytes;
}
