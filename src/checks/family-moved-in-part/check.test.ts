import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../environment/snapshot.js';
import { makeContext } from '../../../test/check/helpers/make-context.js';
import check from './check.js';
import { findPartialMoves } from './find-partial-moves.js';

const versions = (entries: Record<string, string>) => new Map(Object.entries(entries));

describe('findPartialMoves', () => {
  it.each([
    [
      'flashinfer-python moved, cubin stayed (the incident)',
      { 'flashinfer-python': '0.6.3', 'flashinfer-cubin': '0.6.3' },
      { 'flashinfer-python': '0.6.4', 'flashinfer-cubin': '0.6.3' },
      ['pip install flashinfer-cubin==0.6.4'],
    ],
    [
      'the whole family moved',
      { 'flashinfer-python': '0.6.3', 'flashinfer-cubin': '0.6.3', 'flashinfer-jit-cache': '0.6.3+cu130' },
      { 'flashinfer-python': '0.6.4', 'flashinfer-cubin': '0.6.4', 'flashinfer-jit-cache': '0.6.4+cu130' },
      [],
    ],
    [
      'torch moved, torchvision stayed',
      { torch: '2.9.1', torchvision: '0.24.1' },
      { torch: '2.10.0', torchvision: '0.24.1' },
      ["pip install 'torchvision==0.25.*'"],
    ],
    [
      'torch moved, torchaudio 2.11 stays by design',
      { torch: '2.12.0', torchaudio: '2.11.0' },
      { torch: '2.13.0', torchaudio: '2.11.0' },
      [],
    ],
    ['nothing moved', { torch: '2.9.1' }, { torch: '2.9.1' }, []],
  ])('%s', (_name, before, after, fixes) => {
    expect(findPartialMoves(versions(before), versions(after)).map((p) => p.fix)).toEqual(fixes);
  });
});

describe('family-moved-in-part', () => {
  it('compares the installed environment with the --against snapshot', () => {
    const previous: Snapshot = {
      schemaVersion: 1,
      environment: {
        python: null,
        sitePackages: [],
        distributions: [
          { name: 'flashinfer-python', version: '0.6.3', installer: 'pip', source: 'index' },
          { name: 'flashinfer-cubin', version: '0.6.3', installer: 'pip', source: 'index' },
        ],
      },
    };
    const context = makeContext(
      [
        { name: 'flashinfer-python', version: '0.6.4' },
        { name: 'flashinfer-cubin', version: '0.6.3' },
      ],
      { previous },
    );
    expect(check.run(context)[0]?.detail).toBe(
      'The flashinfer family moved only in part: flashinfer-python 0.6.3 → 0.6.4; now out of step: flashinfer-cubin 0.6.3 (needs 0.6.4).',
    );
    expect(check.run(makeContext([]))).toEqual([]);
  });
});
