import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findRecordRows, listFolderRuns, parseRecord } from './parse-record.js';

// Texts of RECORD-like pieces: folders, `..` and `./` parts, absolute paths, quotes, CR, empty rows.
const piece = fc.constantFrom(
  'a',
  'a/',
  'b/c.py',
  'lib.so',
  '.so.2',
  '..',
  './',
  '/',
  '/usr/x',
  '"',
  '""',
  ',',
  '\n',
  '\r',
  '\r\n',
  'sha256=x',
  '',
  '1',
);
const anyRecord = fc.array(piece, { maxLength: 40 }).map((pieces) => pieces.join(''));
// And texts of whole rows, mostly under a few top folders, so that long runs meet odd rows.
const rowPart = fc.constantFrom('a', 'b.py', '..', '.', '/', './', '"', ',h', ',h..,1', '\r');
const anyRows = fc
  .array(
    fc.tuple(fc.constantFrom('t/', 't/', 't/', 'u/', '', '/', '"t/'), fc.array(rowPart, { maxLength: 4 })),
    { maxLength: 30 },
  )
  .chain((rows) =>
    fc.constantFrom('\n', '\r\n').map((eol) => rows.map(([top, parts]) => top + parts.join('')).join(eol)),
  );

/** What listFolderRuns must give, line by line: a plain row under its predecessor's top is left out. */
function referenceRuns(text: string): string[] {
  const rows = text
    .split(/\r?\n/)
    .map((line) => ({ path: parseRecord(line)[0]?.path ?? '', quoted: line.includes('"') }))
    .filter((row) => row.path !== '');
  // A row with a quote anywhere is read as CSV and never folded into a run, nor a run into it.
  const plain = (row: { path: string; quoted: boolean }) =>
    !row.quoted && !row.path.startsWith('/') && !row.path.includes('..') && !row.path.includes('./');
  return rows
    .filter((row, index) => {
      const before = rows[index - 1];
      if (before === undefined || !plain(before) || !plain(row)) return true;
      return !row.path.startsWith(`${before.path.split('/')[0] ?? ''}/`);
    })
    .map((row) => row.path);
}

describe('findRecordRows', () => {
  it.each([
    ['torch/lib/libc10.so,sha256=a,1\ntorch/__init__.py,sha256=b,2\n', '.so', ['torch/lib/libc10.so']],
    ['x.py,,\r\n"odd,lib.so.2",sha256=c,3\r\n', '.so', ['odd,lib.so.2']],
    ['a.py,sha256=.so,1\n', '.so', []],
    ['', '.so', []],
  ])('%j, %j', (text, needle, paths) => {
    expect(findRecordRows(text, needle).map((row) => row.path)).toEqual(paths);
  });

  it("gives parseRecord's rows whose path holds the needle, for any text", () => {
    fc.assert(
      fc.property(anyRecord, fc.constantFrom('.so', 'a', '/', '..'), (text, needle) => {
        expect(findRecordRows(text, needle)).toEqual(
          parseRecord(text).filter((row) => row.path.includes(needle)),
        );
      }),
      { numRuns: 3000 },
    );
  });
});

describe('listFolderRuns', () => {
  it.each([
    [
      'torch/a.py,h,1\ntorch/b/c.py,h,2\nnumpy/x.py,h,3\ntorch/d.py,h,4\n',
      ['torch/a.py', 'numpy/x.py', 'torch/d.py'],
    ],
    ['six.py,h,1\nsix.py,h,1\n', ['six.py', 'six.py']],
    [
      'torch/a.py,h,1\ntorch/../evil.py,h,2\ntorch/b.py,h,3\n',
      ['torch/a.py', 'torch/../evil.py', 'torch/b.py'],
    ],
    ['../../bin/x,h,1\n../../bin/y,h,2\n', ['../../bin/x', '../../bin/y']],
    ['torch/a.py,h,1\n"torch/b,c.py",h,2\ntorch/d.py,h,3\n', ['torch/a.py', 'torch/b,c.py', 'torch/d.py']],
    ['torch/a.py,h,1\n,,\n\ntorch/b.py,h,2', ['torch/a.py']],
    ['torch/a.py,h,1\r\ntorch/b.py,h,2\r\n', ['torch/a.py']],
    ['t/a,h,1\nt/b,h,2\nt/c,h,3\nt/d', ['t/a']],
    ['t/a,h,1\nt/b,h,2\nt/../c,h,3\nt/d,h,4\nt/e,h,5\n', ['t/a', 't/../c', 't/d']],
    ['t/a,h,1\nt/b,h,2\nt/./c,h,3\nt/d,h,4\n', ['t/a', 't/./c', 't/d']],
    ['t/a,h,1\nt/b,h,2\nt/c,"h",3\nt/d,h,4\n', ['t/a', 't/c', 't/d']],
    ['t/a,h,1\nt/b,h,2\n\nt/c,h,3\nu/d,h,4\nt/e\n', ['t/a', 'u/d', 't/e']],
    ['t/a,h,1\nt/b,h..,2\nt/c,h,3\n', ['t/a']],
  ])('%j', (text, paths) => {
    expect(listFolderRuns(text)).toEqual(paths);
  });

  it('leaves out only plain rows under the top folder of the plain row before, for any text', () => {
    fc.assert(
      fc.property(fc.oneof(anyRecord, anyRows), (text) => {
        expect(listFolderRuns(text)).toEqual(referenceRuns(text));
      }),
      { numRuns: 3000 },
    );
  });
});
