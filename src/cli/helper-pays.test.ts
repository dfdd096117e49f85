import { describe, expect, it } from 'vitest';
import { helperPays, provesHelper } from './helper-pays.js';

describe('helperPays', () => {
  it('starts the helper only where a core is idle on average', () => {
    expect(helperPays({}, 0.4, 2)).toBe(true);
    expect(helperPays({}, 1, 2)).toBe(false);
    expect(helperPays({}, 3.5, 2)).toBe(false);
    expect(helperPays({}, 6, 8)).toBe(true);
    expect(helperPays({}, 0, 1)).toBe(false);
  });

  it('does as VIGIL_PRESCAN_HELPER says, whatever the load', () => {
    expect(helperPays({ VIGIL_PRESCAN_HELPER: '1' }, 9, 2)).toBe(true);
    expect(helperPays({ VIGIL_PRESCAN_HELPER: '0' }, 0, 16)).toBe(false);
    expect(helperPays({ VIGIL_PRESCAN_HELPER: 'prove' }, 9, 2)).toBe(true);
  });

  it('leaves the helper its first block only to prove it runs', () => {
    expect(provesHelper({ VIGIL_PRESCAN_HELPER: 'prove' })).toBe(true);
    expect(provesHelper({ VIGIL_PRESCAN_HELPER: '1' })).toBe(false);
  });
});
