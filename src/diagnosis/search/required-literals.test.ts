import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CARET, CONSOLE_ARTIFACT, MARKERS, STRUCTURE, TRIGGER } from '../knowledge/may-matter.js';
import { compileLiteralSearch } from './literal-automaton.js';
import { requiredLiterals } from './required-literals.js';

describe('requiredLiterals', () => {
  it.each([
    ['plain words', 'error|fail', ['error', 'fail']],
    [
      'an optional character, spelled both ways',
      'timed? ?out',
      ['timeout', 'time out', 'timedout', 'timed out'],
    ],
    ['a class', 'unauthori[sz]ed', ['unauthorised', 'unauthorized']],
    ['escapes', 'what\\(\\)|Args \\{|\\.service', ['what()', 'Args {', '.service']],
    ['anchors as line ends', '^Copy$', ['\nCopy\n']],
    ['an optional group', '^(?:ab)?:', ['\n:', '\nab:']],
    ['a repeated group of fixed size', 'x(?:ab|cd){2}y', ['xababy', 'xabcdy', 'xcdaby', 'xcdcdy']],
    ['the longest run when a wide part splits it', 'ab\\d+cde', ['cde']],
    ['a run that starts with what a `+` needs once', 'a+bc', ['bc']],
    ['the run after spaces, not the bare line start', '^\\s*\\^', ['^']],
    ['the rarer run of equals: one with a line end', '^\\d{4}-\\d\\dT\\d\\dZ$', ['Z\n']],
    ['lookarounds and word boundaries pass', '\\bError(?!s)(?<=r)', ['Error']],
    ['a named group', '(?<word>ok)!', ['ok!']],
    ['hex and unicode escapes', '\\x41\\u0042', ['AB']],
    [
      "a group that cannot be spelled: one of its alternatives' runs",
      '^\\[\\w+\\] ((?:PRTE|ORTE) ERROR: .+|ORTE_ERROR_LOG: .+)',
      ['PRTE ERROR: ', 'ORTE ERROR: ', 'ORTE_ERROR_LOG: '],
    ],
    [
      'what a group ends in, joined to what follows it',
      '(?:^|: )([A-Z]\\w*(?:Error|Exception)): ',
      ['Error: ', 'Exception: '],
    ],
    ['not the runs of a group that may not match', 'x(?:longword\\d)?: ', [': ']],
  ])('%s: /%s/', (_, source, expected) => {
    expect(requiredLiterals(source)).toEqual(expected);
  });

  it.each([
    ['an empty alternative', 'a|'],
    ['nothing fixed', '.*|\\d+'],
    ['only a line start', '^\\s+'],
    ['a back reference', '(a)\\1'],
    ['an unknown escape', '\\p{L}'],
    ['an unclosed group', '(ab'],
    ['an unclosed class', '[ab'],
    ['a quantifier with nothing before it', '*a'],
  ])('throws for %s: /%s/', (_, source) => {
    expect(() => requiredLiterals(source)).toThrow(/cannot search for/);
  });
});

describe('a search for the required literals finds every line its pattern matches', () => {
  const PATTERNS = { TRIGGER, STRUCTURE, MARKERS, CONSOLE_ARTIFACT, CARET };

  it.each(Object.entries(PATTERNS))('%s', (_, pattern) => {
    const search = compileLiteralSearch(requiredLiterals(pattern.source));
    // fast-check spells strings for case-sensitive patterns; case is then flipped where the pattern folds.
    const lines = fc
      .tuple(fc.stringMatching(new RegExp(pattern.source)), fc.array(fc.boolean(), { maxLength: 200 }))
      .map(([line, flips]) =>
        pattern.ignoreCase
          ? [...line].map((ch, i) => (flips[i] === true ? flipCase(ch) : ch)).join('')
          : line,
      )
      .filter((line) => !/[\r\n\u2028\u2029]/.test(line) && pattern.test(line));
    fc.assert(
      fc.property(lines, (line) => {
        const bytes = Buffer.from(`${line}\n`, 'utf8');
        expect(search.find(bytes, 0, bytes.length)).not.toBe(-1);
        expect(search.test(line)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

function flipCase(ch: string): string {
  return ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase();
}
