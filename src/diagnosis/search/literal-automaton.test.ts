import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileLiteralSearch } from './literal-automaton.js';

const find = (literals: string[], text: string, from = 0): number => {
  const bytes = Buffer.from(text, 'latin1');
  return compileLiteralSearch(literals).find(bytes, from, bytes.length);
};

describe('compileLiteralSearch', () => {
  it.each([
    ['the end of the first literal found', ['error'], 'no ERROR here\n', 7],
    ['folds ASCII case both ways', ['Error'], 'an eRrOr\n', 7],
    ['the earliest end among several', ['memory', 'of m'], 'out of memory\n', 7],
    ['a literal inside another that fails', ['abd', 'bc'], 'xabc\n', 3],
    ['a literal after a partial one', ['aab'], 'aaab\n', 3],
    ['none', ['error', 'fail'], 'all good\n', -1],
    ['a line start at `from`', ['\ncopy\n'], 'Copy\n', 4],
    ['a line start after a newline', ['\n:'], 'a\n: x\n', 2],
    ['not a line start mid-line', ['\n:'], 'a: x\n', -1],
    ['a line end', ['z\n'], '2024-03-28T01:20:32Z\n', 20],
  ])('%s', (_, literals, text, expected) => {
    expect(find(literals, text)).toBe(expected);
  });

  it.each([
    ['a literal in a line', ['error'], 'an ERROR here', true],
    ['none', ['error'], 'all good', false],
    ['a literal at the line’s end', ['z\n'], '2024-03-28T01:20:32Z', true],
    ['a whole line', ['\ncopy\n'], 'Copy', true],
    ['not a whole line', ['\ncopy\n'], 'Copy this', false],
    ['past non-ASCII text', ['error'], 'Ошибка: error', true],
    ['non-ASCII text only', ['error'], 'Ошибка', false],
  ])('test: %s', (_, literals, line, expected) => {
    expect(compileLiteralSearch(literals).test(line)).toBe(expected);
  });

  it('searches only [from, to)', () => {
    const bytes = Buffer.from('error\nok\nerror\n', 'latin1');
    const search = compileLiteralSearch(['error']);
    expect(search.find(bytes, 6, bytes.length)).toBe(13);
    expect(search.find(bytes, 6, 12)).toBe(-1);
  });

  it('refuses no literals, an empty one, and non-ASCII ones', () => {
    expect(() => compileLiteralSearch([])).toThrow();
    expect(() => compileLiteralSearch(['a', ''])).toThrow();
    expect(() => compileLiteralSearch(['Fehler', 'défaut'])).toThrow(/ASCII/);
  });

  it('finds what indexOf finds, at the same place (random texts and literals)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'A', 'B', ' ', '\n'), maxLength: 80 });
    const literal = fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' '), minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(text, fc.array(literal, { minLength: 1, maxLength: 5 }), (haystack, literals) => {
        // The earliest end of any literal: where a left-to-right reader first completes one.
        const firstEnd = Math.min(...literals.map((word) => firstEndOf(haystack.toLowerCase(), word)));
        expect(find(literals, haystack)).toBe(firstEnd === Infinity ? -1 : firstEnd);
      }),
      { numRuns: 500 },
    );
  });
});

/** Where the first occurrence of `word` ends. */
function firstEndOf(text: string, word: string): number {
  const at = text.indexOf(word);
  return at === -1 ? Infinity : at + word.length - 1;
}
