import { describe, expect, it } from 'vitest';
import { findBacktrackingRisks } from './pattern-safety.js';

describe('findBacktrackingRisks', () => {
  // Known evil patterns: each takes exponential time on a crafted input.
  it.each([
    ['(a+)+$', 'nested quantifiers'],
    ['(a*)*b', 'nested quantifiers'],
    ['(.*a){20}', 'nested quantifiers'],
    ['(x+x+)+y', 'nested quantifiers'],
    ['(\\w+\\s?)*$', 'nested quantifiers'],
    ['^(([a-z])+.)+[A-Z]([a-z])+$', 'nested quantifiers'],
    ['(?:\\d+)*x', 'nested quantifiers'],
    ['(?=(a+)+)b', 'nested quantifiers'],
    ['(a|a)*', 'start with the same character'],
    ['(a|aa)+$', 'start with the same character'],
    ['(\\w|\\d)+$', 'start with the same character'],
    ['(?:a|)*', 'can match nothing'],
    ['^(a?){25}a{25}$', 'can match nothing'],
    ['\\s*.*\\S*x', 'three unbounded repeats'],
  ])('rejects %s (%s)', (source, reason) => {
    const risks = findBacktrackingRisks(source);
    expect(risks.join('; ')).toContain(reason);
  });

  it('compares alternatives case-insensitively under the i flag', () => {
    expect(findBacktrackingRisks('(?:[a-z]|[A-Z])+')).toEqual([]);
    expect(findBacktrackingRisks('(?:[a-z]|[A-Z])+', 'i')).not.toEqual([]);
  });

  it.each([
    "No module named '(?<module>[^']+)'",
    'CUDA error: (?<what>.+)',
    '(foo|bar)+',
    '(\\d{1,3}\\.){3}\\d{1,3}',
    '(?:[a-z]|\\d)+',
    'undefined symbol: (?<symbol>_Z\\w+)',
    '\\w+\\d+',
    '(?<![\\w.-])lib[\\w.-]*?\\.so',
    '[\\w.]*\\._',
    'a{2,5}',
    '^$',
    '[^\\]]+\\]',
    '\\u0041+\\x42*',
  ])('accepts %s', (source) => {
    expect(findBacktrackingRisks(source)).toEqual([]);
  });

  it('rejects a very long pattern', () => {
    expect(findBacktrackingRisks('a'.repeat(3000))[0]).toContain('characters long');
  });

  it('never throws on odd but valid syntax', () => {
    for (const source of ['[', '(', '\\', '[]]', '(?<n>', '{1,', 'a{,5}', '\\k<n>', '\\p{L}+', '[\\p{L}-]']) {
      expect(() => findBacktrackingRisks(source)).not.toThrow();
    }
  });
});
