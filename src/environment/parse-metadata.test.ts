import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertEggRequires, parseMetadata } from './parse-metadata.js';
import { parsePyvenvCfg } from './parse-pyvenv-cfg.js';
import { parseRecord } from './parse-record.js';

describe('parseMetadata', () => {
  it('reads repeated fields, continuation lines, and stops at the body', () => {
    const text = [
      'Metadata-Version: 2.1',
      'Name: flashinfer-python',
      'Version: 0.6.4',
      'Requires-Python: >=3.9',
      'Requires-Dist: torch',
      'Requires-Dist: numpy;',
      '  python_version >= "3.9"',
      'Provides-Extra: cu13',
      '',
      'Requires-Dist: not-a-header-in-the-body',
    ].join('\n');
    expect(parseMetadata(text)).toEqual({
      name: 'flashinfer-python',
      version: '0.6.4',
      requiresPython: '>=3.9',
      requiresDist: ['torch', 'numpy; python_version >= "3.9"'],
      providesExtra: ['cu13'],
    });
  });

  it('answers null without Name or Version', () => {
    expect(parseMetadata('Metadata-Version: 2.1\nName: x\n')).toBeNull();
  });

  it.each([
    [
      'keys in any case, spaced, after a BOM',
      '\uFEFFname : a\nVERSION:1\nrequires-DIST : b\n',
      ['a', '1', ['b']],
    ],
    [
      'a continuation of a field not kept',
      'Name: a\nVersion: 1\nSummary: s\n  Requires-Dist: x\n',
      ['a', '1', []],
    ],
    [
      'CRLF lines and a blank CRLF line',
      'Name: a\r\nVersion: 1\r\n\r\nRequires-Dist: body\r\n',
      ['a', '1', []],
    ],
    ['a line without a colon between', 'Name: a\nnot a header\n more\nVersion: 1', ['a more', '1', []]],
  ])('%s', (_name, text, [name, version, requiresDist]) => {
    expect(parseMetadata(text)).toMatchObject({ name, version, requiresDist });
  });

  // parseMetadata passes over the fields it does not keep; what it gives must be what reading every
  // header into a map (the plain reading) and picking the five fields gives, whatever the text.
  it('gives what reading every header gives, for any text', () => {
    const key = fc.constantFrom(
      'Name',
      'name',
      'NAME',
      ' Name',
      'Version',
      'Requires-Dist',
      'requires-dist',
      'Requires-Python',
      'Provides-Extra',
      'Classifier',
      'Summary',
      'Requires',
      'Platform',
      '\uFEFFName',
      '',
    );
    const value = fc.constantFrom('', 'x', ' y ', 'torch>=2', 'a:b', '\r');
    const eol = fc.constantFrom('\n', '\r\n', '\n\n', '\r', '\n ', '\n\t');
    const line = fc
      .tuple(key, fc.constantFrom(':', ': ', ' :', ''), value, eol)
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 14 }), (lines) => {
        const text = lines.join('');
        expect(parseMetadata(text)).toEqual(readEveryHeader(text));
      }),
      { numRuns: 5000 },
    );
  });
});

/** The plain reading: every header into a map of repeated values, then the five fields picked. */
function readEveryHeader(text: string) {
  const headers = new Map<string, string[]>();
  let last: string[] | null = null;
  const end = text.search(/\r?\n\r?\n/);
  for (const line of (end === -1 ? text : text.slice(0, end)).split(/\r?\n/)) {
    if (line === '') break;
    if ((line.startsWith(' ') || line.startsWith('\t')) && last !== null) {
      last[last.length - 1] = `${last[last.length - 1] ?? ''} ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const values = headers.get(key) ?? [];
    values.push(line.slice(colon + 1).trim());
    headers.set(key, values);
    last = values;
  }
  const name = headers.get('name')?.[0];
  const version = headers.get('version')?.[0];
  if (name === undefined || name === '' || version === undefined || version === '') return null;
  return {
    name,
    version,
    requiresDist: (headers.get('requires-dist') ?? []).filter((value) => value !== ''),
    requiresPython: headers.get('requires-python')?.[0] ?? null,
    providesExtra: headers.get('provides-extra') ?? [],
  };
}

describe('convertEggRequires', () => {
  it.each([
    ['six\n', ['six']],
    ['[test]\npytest\n', ['pytest; extra == "test"']],
    ['[:python_version == "3.6"]\ndataclasses\n', ['dataclasses; python_version == "3.6"']],
    [
      '[socks:sys_platform == "win32"]\nwin-inet-pton\n',
      ['win-inet-pton; (sys_platform == "win32") and extra == "socks"'],
    ],
  ])('%j', (text, expected) => {
    expect(convertEggRequires(text)).toEqual(expected);
  });
});

describe('parseRecord', () => {
  it('reads plain and quoted rows', () => {
    const text =
      'torch/__init__.py,sha256=abc,10\n"odd,name.py",sha256=def,3\r\ntorch-2.10.0.dist-info/RECORD,,\n\n';
    expect(parseRecord(text)).toEqual([
      { path: 'torch/__init__.py', hash: 'sha256=abc' },
      { path: 'odd,name.py', hash: 'sha256=def' },
      { path: 'torch-2.10.0.dist-info/RECORD', hash: '' },
    ]);
  });

  it('reads quoted rows anywhere among plain ones', () => {
    const text = 'a.py,h1,1\nb.py,h2,2\n"c,d.py",h3,3\ne.py,h4,4\nf.py,"h""5",5\n"g.py",,\nh.py,h6';
    expect(parseRecord(text)).toEqual([
      { path: 'a.py', hash: 'h1' },
      { path: 'b.py', hash: 'h2' },
      { path: 'c,d.py', hash: 'h3' },
      { path: 'e.py', hash: 'h4' },
      { path: 'f.py', hash: 'h"5' },
      { path: 'g.py', hash: '' },
      { path: 'h.py', hash: 'h6' },
    ]);
  });

  // The reading is written for speed; what it must give is the plain reading's (split on CRLF or LF, then
  // on commas unless quoted), whatever the text: lone CRs, empty rows, a missing final newline, quotes.
  it('gives what splitting on lines and commas gives, for any text', () => {
    const reference = (text: string) =>
      text
        .split(/\r?\n/)
        .filter((line) => line !== '' && !line.includes('"'))
        .map((line) => line.split(','))
        .map(([path = '', hash = '']) => ({ path, hash }))
        .filter((entry) => entry.path !== '');
    const piece = fc.constantFrom('a', 'b/c.py', ',', '\n', '\r', '\r\n', 'sha256=x', '', '1');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const text = pieces.join('');
        expect(parseRecord(text)).toEqual(reference(text));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('parsePyvenvCfg', () => {
  it('reads key = value lines and skips the rest', () => {
    const cfg = parsePyvenvCfg('home = /usr/bin\nversion_info = 3.12.11\n[not ini]\nuv = 0.8.0\n');
    expect(Object.fromEntries(cfg)).toEqual({ home: '/usr/bin', version_info: '3.12.11', uv: '0.8.0' });
  });
});
