import { describe, expect, it } from 'vitest';
import { makeContext } from '../../../test/check/helpers/make-context.js';
import check from './check.js';

const sglang = {
  name: 'sglang',
  version: '0.5.1.post3',
  providesExtra: ['srt'],
  requires: ['torch==2.8.0; extra == "srt"', 'sgl-kernel==0.3.7; extra == "srt"'],
};

describe('engine-pin-mismatch', () => {
  it('flags a pin behind an extra when the pinned package is installed at another version', () => {
    const context = makeContext([
      sglang,
      { name: 'torch', version: '2.9.0' },
      { name: 'sgl-kernel', version: '0.3.7' },
    ]);
    expect(check.run(context)).toMatchObject([{ packages: ['sglang', 'torch'] }]);
    expect(check.run(context)[0]?.detail).toContain('pins torch==2.8.0 for its [srt] extra');
  });

  it('is quiet when the pins hold, or the package is absent', () => {
    expect(check.run(makeContext([sglang, { name: 'torch', version: '2.8.0' }]))).toEqual([]);
  });

  it('leaves extras that a dependent asks for to extra-requirement-unmet', () => {
    const context = makeContext([
      sglang,
      { name: 'app', version: '1', requires: ['sglang[srt]'] },
      { name: 'torch', version: '2.9.0' },
    ]);
    expect(check.run(context)).toEqual([]);
  });
});
