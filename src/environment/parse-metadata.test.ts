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
});

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
});

describe('parsePyvenvCfg', () => {
  it('reads key = value lines and skips the rest', () => {
    const cfg = parsePyvenvCfg('home = /usr/bin\nversion_info = 3.12.11\n[not ini]\nuv = 0.8.0\n');
    expect(Object.fromEntries(cfg)).toEqual({ home: '/usr/bin', version_info: '3.12.11', uv: '0.8.0' });
  });
});
