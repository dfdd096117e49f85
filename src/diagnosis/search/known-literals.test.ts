import { describe, expect, it } from 'vitest';
// Every module that calls anyOf, as the diagnosis loads them.
import '../session.js';
import { listedPatterns } from '../knowledge/any-of.js';
import { BLOCK_PATTERNS } from '../knowledge/may-matter.js';
import { CATEGORY_RULES } from '../classify/categories.js';
import { KNOWN_LITERALS, REFUSED_LITERALS } from './known-literals.js';
import { readLiterals, requiredLiterals } from './required-literals.js';

describe('the literals read at build time (scripts/build-literals.mjs)', () => {
  it('are what reading each source gives', () => {
    expect(KNOWN_LITERALS.size).toBeGreaterThan(100);
    for (const [source, literals] of KNOWN_LITERALS) expect(readLiterals(source)).toEqual(literals);
  });

  it("hold every pattern of the lists, of the block search and of the categories' words that can be read", () => {
    const categoryWords = CATEGORY_RULES.flatMap((rule) => (rule.words ? [rule.words] : []));
    expect(categoryWords.length).toBeGreaterThan(10);
    for (const pattern of [...listedPatterns(), ...BLOCK_PATTERNS, ...categoryWords]) {
      let readable = true;
      try {
        readLiterals(pattern.source);
      } catch {
        readable = false;
      }
      expect(KNOWN_LITERALS.has(pattern.source), pattern.source).toBe(readable);
      expect(REFUSED_LITERALS.has(pattern.source), pattern.source).toBe(!readable);
    }
  });

  // None is refused now (a group's runs are read through it); a pattern added beyond the reader would be.
  it('refuse, with the error reading gives, each source that cannot be read', () => {
    for (const [source, message] of REFUSED_LITERALS) {
      expect(() => readLiterals(source)).toThrow(message);
      expect(() => requiredLiterals(source)).toThrow(message);
    }
  });

  it('answer for a source they hold, and a new source is read', () => {
    const [source, literals] = [...KNOWN_LITERALS][0] ?? ['', []];
    expect(requiredLiterals(source)).toEqual(literals);
    expect(requiredLiterals('never (listed|seen)')).toEqual(['never listed', 'never seen']);
  });
});
