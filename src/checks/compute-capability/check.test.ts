import { describe, expect, it } from 'vitest';
import type { ModelFacts } from '../../environment/read-model.js';
import { makeContext } from '../../../test/check/helpers/make-context.js';
import { gpuReading } from '../../../test/check/helpers/gpu-readings.js';
import check from './check.js';

const bf16Model: ModelFacts = {
  path: '/m',
  config: { torch_dtype: 'bfloat16' },
  tokenizerMaxLength: null,
  support: { engines: [], transformers: null },
};

describe('compute-capability', () => {
  it.each([
    ['H200 with torch cu130', '9.0', '13.0', [], null, []],
    ['V100 with torch cu130', '7.0', '13.0', [], null, ['error']],
    ['V100 with torch cu128', '7.0', '12.8', [], null, ['warning']],
    ['B200 with torch cu126', '10.0', '12.6', [], null, ['error']],
    ['T4 with flashinfer', '7.5', '12.6', [{ name: 'flashinfer-python', version: '0.6.4' }], null, []],
    [
      'P100 with flashinfer',
      '6.0',
      '12.6',
      [{ name: 'flashinfer-python', version: '0.6.4' }],
      null,
      ['error'],
    ],
    ['T4 with a bfloat16 model', '7.5', '12.6', [], bf16Model, ['warning']],
  ])('%s', (_name, capability, torchCuda, others, model, severities) => {
    const context = makeContext([{ name: 'torch', version: '2.10.0' }, ...others], {
      torchCuda,
      model,
      gpu: gpuReading({ computeCapability: capability, name: 'GPU' }, 2),
    });
    expect(check.run(context).map((p) => p.severity)).toEqual(severities);
  });
});
