import { describe, expect, it } from 'vitest';
import { makeContext, makeDistribution } from '../../../test/check/helpers/make-context.js';
import check from './check.js';

describe('duplicate-distribution', () => {
  it('is an error for two copies in one folder', () => {
    const context = makeContext([
      makeDistribution({ name: 'torch', version: '2.10.0' }),
      makeDistribution({ name: 'torch', version: '2.9.1' }),
    ]);
    expect(check.run(context)).toMatchObject([{ severity: 'error', packages: ['torch'] }]);
  });

  it('is a warning when one folder shadows another', () => {
    const context = makeContext([
      makeDistribution({ name: 'numpy', version: '2.2.6' }, '/venv/lib/python3.11/site-packages'),
      makeDistribution({ name: 'numpy', version: '1.26.4' }, '/usr/lib/python3/dist-packages'),
    ]);
    expect(check.run(context)).toMatchObject([{ severity: 'warning' }]);
  });

  it('is quiet for distinct names', () => {
    expect(
      check.run(
        makeContext([
          { name: 'torch', version: '2.10.0' },
          { name: 'torchvision', version: '0.25.0' },
        ]),
      ),
    ).toEqual([]);
  });
});
