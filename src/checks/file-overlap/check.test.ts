import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeContext, makeDistribution } from '../../../test/check/helpers/make-context.js';
import { keepRecordText } from '../../environment/record-rows.js';
import type { Distribution } from '../../environment/types.js';
import check from './check.js';

const lib = 'nvidia/nccl/lib/libnccl.so.2';

describe('file-overlap', () => {
  it.each([
    [
      'same file, different contents',
      { path: lib, hash: 'sha256=a' },
      { path: lib, hash: 'sha256=b' },
      'error',
    ],
    [
      'a console script in bin/',
      { path: '../../../bin/tool', hash: 'sha256=a' },
      { path: '../../../bin/tool', hash: 'sha256=b' },
      'warning',
    ],
  ])('%s → %s', (_name, first, second, severity) => {
    const context = makeContext([
      { name: 'nvidia-nccl-cu12', version: '2.27.3', files: [first] },
      { name: 'nvidia-nccl-cu13', version: '2.28.1', files: [second] },
    ]);
    expect(check.run(context)).toMatchObject([
      { severity, packages: ['nvidia-nccl-cu12', 'nvidia-nccl-cu13'] },
    ]);
  });

  it('is quiet for identical files and for different paths', () => {
    const context = makeContext([
      {
        name: 'a',
        version: '1',
        files: [
          { path: 'nvidia/__init__.py', hash: 'sha256=same' },
          { path: 'a/x.py', hash: 'sha256=1' },
        ],
      },
      {
        name: 'b',
        version: '1',
        files: [
          { path: 'nvidia/__init__.py', hash: 'sha256=same' },
          { path: 'b/x.py', hash: 'sha256=1' },
        ],
      },
    ]);
    expect(check.run(context)).toEqual([]);
  });

  // The check compares rows only inside top folders two distributions share; it must find what comparing
  // every row with every earlier row finds, in the same order, whatever the paths and site folders.
  // Read from disk, a distribution's top folders come from its RECORD text (record-rows.ts), not its rows.
  it.each([
    ['one site folder', ['/venv/lib/python3.11/site-packages'], false],
    ['two site folders', ['/venv/lib/python3.11/site-packages', '/usr/lib/python3/dist-packages'], false],
    ['nested site folders', ['/venv/lib', '/venv/lib/site'], false],
    ['a site folder with ./ and ..', ['/venv/./lib/../site', '/venv/site'], false],
    ['one site folder, RECORD as text', ['/venv/lib/python3.11/site-packages'], true],
    [
      'two site folders, RECORD as text',
      ['/venv/lib/python3.11/site-packages', '/usr/lib/python3/dist-packages'],
      true,
    ],
  ])('finds what a row-by-row comparison finds: %s', (_name, sites, asText) => {
    let seed = 7;
    const pick = <T>(list: readonly T[]): T => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return list[seed % list.length] as T;
    };
    const parts = ['torch', 'nvidia', 'lib', 'a.py', 'x', '..', '.', 'bin', 'site', 'lib.so'];
    let found = 0;
    for (let round = 0; round < 40; round++) {
      const distributions = Array.from({ length: 6 }, (_, index) =>
        makeDistribution(
          {
            name: pick(['a', 'b', 'c', 'd']) + String(index % 3),
            version: '1',
            files: Array.from({ length: 12 }, () => ({
              path:
                (pick([true, false, false, false]) ? pick(sites) + '/' : '') +
                Array.from({ length: 1 + (seed % 3) }, () => pick(parts)).join('/'),
              hash: pick(['', 'sha256=1', 'sha256=2']),
            })),
          },
          pick(sites),
        ),
      );
      if (asText) distributions.forEach(keepSortedRecord);
      const expected = compareEveryRow(distributions);
      found += expected.length;
      expect(check.run(makeContext(distributions))).toEqual(expected);
    }
    // Not a comparison of two empty lists.
    expect(found).toBeGreaterThan(40);
  });
});

/** Sorts the rows (so runs under one top folder form) and keeps them as RECORD text, as a read does. */
function keepSortedRecord(distribution: Distribution): void {
  distribution.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  keepRecordText(distribution, distribution.files.map(({ path, hash }) => `${path},${hash},1`).join('\n'));
}

/** The clashes by definition: each row against the first earlier row of another distribution at its path. */
function compareEveryRow(distributions: Distribution[]) {
  const seen: { path: string; distribution: Distribution; hash: string }[] = [];
  const clashes: { first: Distribution; second: Distribution; files: string[] }[] = [];
  for (const distribution of distributions) {
    for (const { path, hash } of distribution.files) {
      if (path.endsWith('.pyc') || path.includes('.dist-info/')) continue;
      const joined = path.startsWith('/') ? path : `${distribution.sitePackages}/${path}`;
      const full = joined.includes('..') || joined.includes('./') ? posix.normalize(joined) : joined;
      const owner = seen.find((row) => row.path === full);
      if (owner === undefined) {
        seen.push({ path: full, distribution, hash });
        continue;
      }
      if (owner.distribution.key === distribution.key || (owner.hash !== '' && owner.hash === hash)) continue;
      let clash = clashes.find(
        (other) =>
          other.first.metadataPath === owner.distribution.metadataPath &&
          other.second.metadataPath === distribution.metadataPath,
      );
      if (clash === undefined) {
        clash = { first: owner.distribution, second: distribution, files: [] };
        clashes.push(clash);
      }
      clash.files.push(path);
    }
  }
  return clashes.map(({ first, second, files }) => ({
    severity: files.some((file) => !file.startsWith('..')) ? 'error' : 'warning',
    detail: `${first.name} ${first.version} and ${second.name} ${second.version} both install ${files.length} file(s) with different contents: ${files.slice(0, 3).join(', ')}${files.length > 3 ? `, and ${files.length - 3} more` : ''}. Whichever was installed last overwrote the other.`,
    fix: expect.any(String) as unknown,
    packages: [first.name, second.name],
  }));
}
