import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeName } from './normalize-name.js';

describe('normalizeName', () => {
  it.each([
    ['Flash_Infer.Python', 'flash-infer-python'],
    ['numpy', 'numpy'],
    ['flashinfer-python', 'flashinfer-python'],
    ['nvidia-cuda-runtime-cu12', 'nvidia-cuda-runtime-cu12'],
    ['a--b', 'a-b'],
    ['-a', '-a'],
    ['a-', 'a-'],
    [' torch ', 'torch'],
    ['PyYAML', 'pyyaml'],
    ['zope.interface', 'zope-interface'],
  ])('%j → %j', (name, key) => {
    expect(normalizeName(name)).toBe(key);
  });

  // A name already normal is returned as it is; what it gives must be the three passes' result.
  it('gives what trimming, folding [-_.] runs and lower-casing give, for any name', () => {
    const plain = (name: string) =>
      name
        .trim()
        .replace(/[-_.]+/g, '-')
        .toLowerCase();
    const char = fc.constantFrom('a', 'Z', '0', '-', '_', '.', ' ', 'é', '\t');
    fc.assert(
      fc.property(fc.array(char, { maxLength: 12 }), (chars) => {
        const name = chars.join('');
        expect(normalizeName(name)).toBe(plain(name));
      }),
      { numRuns: 3000 },
    );
  });
});
