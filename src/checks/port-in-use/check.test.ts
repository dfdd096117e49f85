import { describe, expect, it } from 'vitest';
import { makeContext } from '../../../test/check/helpers/make-context.js';
import check from './check.js';

describe('port-in-use', () => {
  it.each([
    [{ port: 8000, state: 'in-use', address: '0.0.0.0' } as const, ['error']],
    [{ port: 80, state: 'denied', address: '127.0.0.1' } as const, ['warning']],
    [{ port: 8000, state: 'free', address: null } as const, []],
    [null, []],
  ])('%j', (port, severities) => {
    expect(check.run(makeContext([], { port })).map((p) => p.severity ?? 'error')).toEqual(severities);
  });
});
