import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../environment/snapshot.js';
import { makeContext } from '../../../test/check/helpers/make-context.js';
import check from './check.js';

const previous: Snapshot = {
  schemaVersion: 1,
  environment: {
    python: null,
    sitePackages: [],
    distributions: [{ name: 'torch', version: '2.9.1', installer: 'pip', source: 'index' }],
  },
};

describe('environment-changed', () => {
  it('summarizes what moved since the snapshot', () => {
    const context = makeContext(
      [
        { name: 'torch', version: '2.10.0' },
        { name: 'triton', version: '3.6.0' },
      ],
      { previous },
    );
    expect(check.run(context)).toEqual([
      {
        detail: 'upgraded: torch 2.9.1 → 2.10.0; added: triton 3.6.0',
        fix: null,
        packages: ['torch', 'triton'],
      },
    ]);
  });

  it('is quiet without a snapshot or without changes', () => {
    expect(check.run(makeContext([{ name: 'torch', version: '2.9.1' }], { previous }))).toEqual([]);
    expect(check.run(makeContext([{ name: 'torch', version: '2.9.1' }]))).toEqual([]);
  });
});
