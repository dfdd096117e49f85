import { describe, expect, it } from 'vitest';
import { makeContext } from '../../../test/check/helpers/make-context.js';
import check from './check.js';

describe('requirement-unmet', () => {
  it.each([
    [
      'a pin met, pre-release installed',
      [
        { name: 'vllm', version: '0.16.0', requires: ['torch>=2.9'] },
        { name: 'torch', version: '2.10.0rc1' },
      ],
      [],
    ],
    [
      'a local label under a public pin',
      [
        { name: 'vllm', version: '0.16.0', requires: ['torch==2.10.0'] },
        { name: 'torch', version: '2.10.0+cu130' },
      ],
      [],
    ],
    [
      'a marker for another platform',
      [{ name: 'a', version: '1', requires: ['pywin32; sys_platform == "win32"'] }],
      [],
    ],
    [
      'an extra nobody asks for',
      [
        { name: 'a', version: '1', requires: ['b==2; extra == "x"'] },
        { name: 'b', version: '1' },
      ],
      [],
    ],
    [
      'a missing requirement',
      [{ name: 'vllm', version: '0.16.0', requires: ['torch==2.10.0'] }],
      ['vllm 0.16.0 requires torch==2.10.0, which is not installed.'],
    ],
    [
      'a version conflict',
      [
        { name: 'vllm', version: '0.16.0', requires: ['torch==2.10.0'] },
        { name: 'torch', version: '2.9.1' },
      ],
      ['vllm 0.16.0 has requirement torch==2.10.0, but you have torch 2.9.1.'],
    ],
    [
      'a wrong local label',
      [
        { name: 'x', version: '1', requires: ['torch==2.9.0+cu128'] },
        { name: 'torch', version: '2.9.0+cu126' },
      ],
      ['x 1 has requirement torch==2.9.0+cu128, but you have torch 2.9.0+cu126.'],
    ],
  ])('%s', (_name, specs, details) => {
    expect(check.run(makeContext(specs)).map((p) => p.detail)).toEqual(details);
  });

  it('names the other dependents of a conflicted package and gives the install command', () => {
    const context = makeContext([
      { name: 'vllm', version: '0.16.0', requires: ['torch==2.10.0'] },
      { name: 'xformers', version: '0.0.30', requires: ['torch==2.9.1'] },
      { name: 'torch', version: '2.9.1', installer: 'uv' },
    ]);
    const [problem] = check.run(context);
    expect(problem?.detail).toContain('Also required by: xformers 0.0.30 (==2.9.1)');
    expect(problem?.fix).toBe('uv pip install torch==2.10.0');
  });
});
