import { describe, expect, it } from 'vitest';
import { cacheFolder, cacheName } from './code-cache.js';

describe('code cache place and name', () => {
  it.each([
    [{ XDG_CACHE_HOME: '/x/cache', HOME: '/home/me' }, '/x/cache/vigil/code'],
    [{ HOME: '/home/me' }, '/home/me/.cache/vigil/code'],
    // A relative XDG_CACHE_HOME is to be ignored (XDG base directory specification).
    [{ XDG_CACHE_HOME: 'cache', HOME: '/home/me' }, '/home/me/.cache/vigil/code'],
  ])('%o → %s', (env, folder) => {
    expect(cacheFolder(env)).toBe(folder);
  });

  it('keeps a file per command, and one for everything else', () => {
    const v8 = process.versions.v8;
    expect(cacheName('0123456789abcdef', 'diagnose')).toBe(
      `0123456789abcdef-v8-${v8}-${process.arch}-diagnose.bin`,
    );
    expect(cacheName('0123456789abcdef', 'probe-config')).toMatch(/-probe-config\.bin$/);
    for (const other of ['', 'nonsense', 'constructor', '../../etc'])
      expect(cacheName('0123456789abcdef', other)).toMatch(/-other\.bin$/);
  });
});
