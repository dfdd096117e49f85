import { describe, expect, it } from 'vitest';
import { makeContext, makeDistribution } from '../../../test/check/helpers/make-context.js';
import check from './check.js';

describe('metadata-unreadable', () => {
  it('reports half-removed folders and unparseable Requires-Dist', () => {
    const broken = { ...makeDistribution({ name: 'odd', version: '1' }), invalidRequirements: ['foo ==='] };
    const context = makeContext([broken]);
    context.environment.unreadable.push({
      path: '/venv/lib/python3.11/site-packages/~orch-2.9.0.dist-info',
      reason: 'left behind',
    });
    expect(check.run(context)).toHaveLength(2);
  });

  it('is quiet for readable metadata', () => {
    expect(check.run(makeContext([{ name: 'torch', version: '2.10.0' }]))).toEqual([]);
  });
});
