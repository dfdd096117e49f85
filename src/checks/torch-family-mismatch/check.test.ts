import { describe, expect, it } from 'vitest';
import { makeContext } from '../../../test/check/helpers/make-context.js';
import check from './check.js';

describe('torch-family-mismatch', () => {
  it.each([
    ['torchvision 0.25 with torch 2.10', [{ name: 'torchvision', version: '0.25.0+cu130' }], []],
    ['torchvision 0.24 with torch 2.10', [{ name: 'torchvision', version: '0.24.1' }], ['torchvision']],
    ['torchaudio 2.10 with torch 2.10', [{ name: 'torchaudio', version: '2.10.0' }], []],
    ['torchaudio 2.9 with torch 2.10', [{ name: 'torchaudio', version: '2.9.1' }], ['torchaudio']],
    ['triton 3.6 with torch 2.10', [{ name: 'triton', version: '3.6.0' }], []],
    ['triton 3.5 with torch 2.10', [{ name: 'triton', version: '3.5.1' }], ['triton']],
  ])('%s', (_name, members, flagged) => {
    const context = makeContext([{ name: 'torch', version: '2.10.0+cu130' }, ...members]);
    expect(check.run(context).map((p) => p.packages[0])).toEqual(flagged);
  });

  it('leaves torchaudio alone after its releases stopped at 2.11', () => {
    expect(
      check.run(
        makeContext([
          { name: 'torch', version: '2.13.0' },
          { name: 'torchaudio', version: '2.11.0' },
        ]),
      ),
    ).toEqual([]);
  });

  it('leaves a pair to requirement-unmet when the member’s own pin already fails', () => {
    const context = makeContext([
      { name: 'torch', version: '2.10.0' },
      { name: 'torchvision', version: '0.24.0', requires: ['torch==2.9.0'] },
    ]);
    expect(check.run(context)).toEqual([]);
  });

  it('trusts torch’s own triton requirement over the table', () => {
    const context = makeContext([
      { name: 'torch', version: '2.10.0', requires: ['triton==3.5.1'] },
      { name: 'triton', version: '3.5.1' },
    ]);
    expect(check.run(context)).toEqual([]);
  });
});
