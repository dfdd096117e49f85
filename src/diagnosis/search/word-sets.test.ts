import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { PASS_PLAN } from './word-pass-plan.js';
import { compileWordSets, planWordSets, readPlan, writePlan } from './word-sets.js';

describe('compileWordSets', () => {
  it.each([
    ['no word of any set', [['error'], ['fail']], 'all good', 0],
    ['a word of the first set', [['error'], ['fail']], 'an ERROR here', 0b01],
    ['words of both sets', [['error'], ['fail']], 'failed with error', 0b11],
    ['a word inside another word of another set', [['abd'], ['bc']], 'xabc', 0b10],
    ['one word in two sets', [['oom'], ['oom', 'kill']], 'OOM', 0b11],
    ['a line start', [['\ncopy\n']], 'Copy', 0b1],
    ['not a whole line', [['\ncopy\n']], 'Copy this', 0],
    ['a line end', [['z\n']], '2024-03-28T01:20:32Z', 0b1],
    ['a word found through a failure link', [['aab'], ['ab']], 'aaab', 0b11],
    ['past non-ASCII text', [['error']], 'Ошибка: error', 0b1],
  ])('%s', (_, sets, line, expected) => {
    expect(compileWordSets(sets).maskOf(line)).toBe(expected);
  });

  it('refuses what it cannot search for', () => {
    expect(() => compileWordSets([['']])).toThrow(/empty/);
    expect(() => compileWordSets([['ошибка']])).toThrow(/ASCII/);
    expect(() => compileWordSets(Array.from({ length: 32 }, () => ['x']))).toThrow(/at most/);
  });

  it('gives each set the bit a plain search gives it, on strings spelled from the words', () => {
    const sets = [
      ['error', 'Traceback'],
      ['fail', 'ail'],
      ['\nCopy', 'oom\n'],
      ['killed', 'kill'],
    ];
    const compiled = compileWordSets(sets);
    const pieces = fc.constantFrom(
      ...sets.flat().map((w) => w.replace(/\n/g, '')),
      ' ',
      'x',
      'é',
      'ERR',
      'Kil',
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 12 }), (parts) => {
        const line = parts.join('');
        const lower = `\n${line.toLowerCase()}\n`;
        const expected = sets.reduce(
          (mask, words, i) => (words.some((w) => lower.includes(w.toLowerCase())) ? mask | (1 << i) : mask),
          0,
        );
        expect(compiled.maskOf(line)).toBe(expected);
      }),
    );
  });

  it('reads the end of the last line as it reads that end alone', () => {
    const sets = [
      ['error', 'Traceback'],
      ['fail', 'ail', 'aab'],
      ['\nCopy', 'oom\n', '\nab'],
      ['killed', 'kill'],
    ];
    const compiled = compileWordSets(sets);
    const pieces = fc.constantFrom(
      'error',
      'fail',
      'ai',
      'l',
      'aa',
      'b',
      'Copy',
      'oom',
      'kil',
      'led',
      ' ',
      'x',
      'é',
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 14 }), fc.nat(), (parts, cut) => {
        const line = parts.join('');
        const from = cut % (line.length + 1);
        const alone = compiled.maskOf(line.slice(from));
        compiled.maskOf(line);
        expect(compiled.maskOfTail(line, from)).toBe(alone);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a tail of another line than the last whole', () => {
    const compiled = compileWordSets([['error'], ['\nfail']]);
    compiled.maskOf('no words here');
    expect(compiled.maskOfTail('x: fail with error', 3)).toBe(0b11);
  });
});

describe('a word pass laid out from a plan', () => {
  const sets = JSON.parse(PASS_PLAN.words) as string[][];

  it('is the plan the knowledge lists’ words give, as written at build time', () => {
    expect(sets.length).toBeGreaterThan(1);
    expect(writePlan(planWordSets(sets))).toBe(PASS_PLAN.plan);
  });

  it('reads back the plan it wrote', () => {
    const plan = planWordSets([['error', 'Traceback'], ['fail', '\nCopy'], ['oom\n']]);
    expect(readPlan(writePlan(plan))).toEqual(plan);
  });

  it('answers every line of a real log as the pass found from the words does', () => {
    const fromWords = compileWordSets(sets);
    const fromPlan = compileWordSets(sets, PASS_PLAN);
    const log = readFileSync(
      new URL('../../../examples/vllm-kimi-k25-flashinfer-mismatch.journal.log', import.meta.url),
      'utf8',
    );
    const lines = log.split('\n');
    expect(lines.length).toBeGreaterThan(1000);
    let found = 0;
    for (const line of lines) {
      const mask = fromWords.maskOf(line);
      expect(fromPlan.maskOf(line)).toBe(mask);
      if (mask !== 0) found++;
    }
    expect(found).toBeGreaterThan(10);
  });

  it('is not laid out from a plan written for other words', () => {
    const other = [['error'], ['fail']];
    const stale = { words: JSON.stringify(other), plan: writePlan(planWordSets([['zzz'], ['yyy']])) };
    expect(compileWordSets([['error'], ['fail']], { ...stale, words: '[["x"]]' }).maskOf('failed')).toBe(
      0b10,
    );
    expect(compileWordSets([['error'], ['fail']], { words: '', plan: '' }).maskOf('an error')).toBe(0b01);
  });
});
