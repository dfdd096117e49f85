import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messageLines, rawLines } from './record-lines.js';

describe('record lines', () => {
  it('split as the regexes they stand for split (random texts)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', ' ', '\n', '\r', 'é'), maxLength: 30 });
    fc.assert(
      fc.property(text, (record) => {
        expect(messageLines(record)).toEqual(record.split(/\r\n|\r|\n/));
        expect(rawLines(record)).toEqual(record.replace(/\n$/, '').split('\n'));
      }),
      { numRuns: 1000 },
    );
  });
});
