import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATEGORY_RULES } from '../classify/categories.js';
import { mayMatch, wordsOf } from './pattern-words.js';
import { repositoryLogs } from '../../../test/helpers/logs-under.js';

const ROOT = join(import.meta.dirname, '../../..');

describe('mayMatch', () => {
  it.each([
    ['a word of the pattern', /out of memory/, 'CUDA out of memory', true],
    ['no word of it', /out of memory/, 'CUDA error: invalid argument', false],
    ['case folded by its own flag', /OutOfMemory/i, 'outofmemory', true],
    [
      'folded without it too: a text that cannot match may pass, never the other way',
      /OutOfMemory/,
      'outofmemory',
      true,
    ],
    ['a line start', /^Copy$/, 'Copy', true],
    ['a line start elsewhere', /^Copy$/, 'Copy that', false],
    ['Unicode folding: not looked for', /k/iu, '\u212A', true],
    ['no fixed word: not looked for', /\d{3,}/, 'code 500', true],
  ])('%s', (_, pattern, text, expected) => {
    expect(mayMatch(pattern, text)).toBe(expected);
    if (pattern.test(text)) expect(expected).toBe(true);
  });

  it("holds wherever a category's words match, on every line of the repository's logs", () => {
    const patterns = CATEGORY_RULES.flatMap((rule) => (rule.words ? [rule.words] : []));
    // Each is looked for by its words: none is tested on every line.
    for (const pattern of patterns) expect(wordsOf(pattern), pattern.source).not.toBeNull();
    const logs = repositoryLogs(ROOT);
    expect(logs.length).toBeGreaterThan(100);
    const missed: string[] = [];
    let ruledOut = 0;
    for (const path of logs) {
      for (const line of readFileSync(path, 'utf8').split(/\r?\n/)) {
        for (const pattern of patterns) {
          const may = mayMatch(pattern, line);
          if (!may) ruledOut++;
          if (!may && pattern.test(line)) missed.push(`${pattern.source.slice(0, 40)}: ${line}`);
        }
      }
    }
    expect(missed).toEqual([]);
    expect(ruledOut).toBeGreaterThan(0);
  }, 180_000);
});
