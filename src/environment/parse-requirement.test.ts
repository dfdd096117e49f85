import { describe, expect, it } from 'vitest';
import { makeRequirementParser, parseRequirement } from './parse-requirement.js';

describe('parseRequirement', () => {
  it.each([
    ['torch==2.10.0', { key: 'torch', extras: [], specifier: '==2.10.0', url: null }],
    [
      'flashinfer_python[cu13]==0.6.14',
      { key: 'flashinfer-python', extras: ['cu13'], specifier: '==0.6.14', url: null },
    ],
    [
      'cuda-toolkit[cublas,cudart, nvrtc]==13.0.2',
      { key: 'cuda-toolkit', extras: ['cublas', 'cudart', 'nvrtc'], specifier: '==13.0.2', url: null },
    ],
    ['zope.interface (>3.5.0)', { key: 'zope-interface', extras: [], specifier: '>3.5.0', url: null }],
    [
      'transformers >= 4.56.0, < 5',
      { key: 'transformers', extras: [], specifier: '>= 4.56.0, < 5', url: null },
    ],
    ['numpy', { key: 'numpy', extras: [], specifier: '', url: null }],
    [
      'pkg @ https://example.com/pkg-1.0-py3-none-any.whl ; python_version >= "3.8"',
      { key: 'pkg', extras: [], specifier: '', url: 'https://example.com/pkg-1.0-py3-none-any.whl' },
    ],
  ])('%s', (raw, expected) => {
    expect(parseRequirement(raw)).toMatchObject(expected);
  });

  it('keeps the marker', () => {
    const requirement = parseRequirement(
      'triton~=3.8.0; platform_system == "Linux" and python_version < "3.15"',
    );
    expect(requirement.specifier).toBe('~=3.8.0');
    expect(requirement.marker).toMatchObject({ kind: 'and' });
  });

  it.each(['', '-bad', 'torch 2.0', 'torch==2; python_version <'])('rejects %j', (raw) => {
    expect(() => parseRequirement(raw)).toThrow();
  });

  it('parses each marker text once across the calls of one parser, and gives the same requirements', () => {
    const lines = [
      'pytest>=8; extra == "test"',
      'sphinx; extra == "docs"',
      'coverage; extra == "test"',
      'numpy; python_version >= "3.9"',
      'triton==3.3.1; platform_system == "Linux" and platform_machine == "x86_64"',
      'six',
    ];
    const parse = makeRequirementParser();
    const shared = lines.map((line) => parse(line));
    expect(shared).toEqual(lines.map((line) => parseRequirement(line)));
    expect(shared[2]?.marker).toBe(shared[0]?.marker);
    expect(() => parse('bad; python_version <')).toThrow();
  });
});
