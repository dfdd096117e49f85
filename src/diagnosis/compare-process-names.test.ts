import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareProcessNames } from './compare-process-names.js';

const icu = (a: string, b: string) => Math.sign(a.localeCompare(b, 'en', { numeric: true }));

describe('compareProcessNames', () => {
  it('sorts as localeCompare with numeric order does', () => {
    const names = ['Worker_TP10', 'Worker_TP2', 'APIServer', 'EngineCore_DP0', 'worker_TP2', 'Worker', 'W_1'];
    expect([...names].sort(compareProcessNames)).toEqual([...names].sort(icu));
  });

  it.each([
    ['Worker_TP2', 'Worker_TP10'],
    ['Worker', 'Worker_TP0'],
    ['a_', 'a0'],
    ['a9', 'aa'],
    ['ab', 'Ab'],
    ['a1b', 'A1b'],
    ['rank 1', 'rank 01'],
    ['pid=7', 'pid=07'],
  ])('%s against %s as ICU has it', (a, b) => {
    expect(Math.sign(compareProcessNames(a, b))).toBe(icu(a, b));
    expect(Math.sign(compareProcessNames(b, a))).toBe(icu(b, a));
  });

  it('agrees with ICU on any name of letters, digits and underscores', () => {
    const name = fc
      .array(
        fc.constantFrom('a', 'A', 'b', 'B', 'z', 'Z', '_', '0', '1', '2', '9', '10', '007', 'TP', 'tp'),
        {
          maxLength: 8,
        },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(name, name, (a, b) => {
        expect(Math.sign(compareProcessNames(a, b))).toBe(icu(a, b));
      }),
      { numRuns: 5000 },
    );
  });
});
