import { describe, expect, it } from 'vitest';
import { makeContext } from '../../../test/check/helpers/make-context.js';
import check from './check.js';

describe('cuda-variant-mismatch', () => {
  it.each([
    ['all cu130', '2.10.0+cu130', undefined, [{ name: 'torchvision', version: '0.25.0+cu130' }], []],
    [
      'torchvision cu128 with torch cu130',
      '2.10.0+cu130',
      undefined,
      [{ name: 'torchvision', version: '0.25.0+cu128' }],
      ['error'],
    ],
    [
      'vllm cu129 with torch cu128',
      '2.9.0+cu128',
      undefined,
      [{ name: 'vllm', version: '0.11.0+cu129' }],
      ['warning'],
    ],
    [
      'a PyPI torch read from version.py',
      '2.10.0',
      '12.8',
      [{ name: 'flashinfer-jit-cache', version: '0.6.4+cu130' }],
      ['error'],
    ],
    [
      'a CPU torch with a CUDA torchvision',
      '2.10.0+cpu',
      null,
      [{ name: 'torchvision', version: '0.25.0+cu130' }],
      ['error'],
    ],
    [
      'a git label is not a CUDA variant',
      '2.10.0+cu130',
      undefined,
      [{ name: 'vllm', version: '0.16.0rc2.dev344+gea5f903f8' }],
      [],
    ],
  ])('%s', (_name, torchVersion, torchCuda, others, severities) => {
    const context = makeContext([{ name: 'torch', version: torchVersion }, ...others], { torchCuda });
    expect(check.run(context).map((p) => p.severity)).toEqual(severities);
  });

  it('gives the PyTorch index for a torchvision rebuild', () => {
    const context = makeContext([
      { name: 'torch', version: '2.10.0+cu130' },
      { name: 'torchvision', version: '0.25.0+cu128' },
    ]);
    expect(check.run(context)[0]?.fix).toBe(
      'pip install torchvision==0.25.0 --force-reinstall --no-deps --index-url https://download.pytorch.org/whl/cu130',
    );
  });
});
