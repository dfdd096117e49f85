import { describe, expect, it } from 'vitest';
import { parseServerFlags } from '../../engines/server-flags.js';
import { gpuReading } from '../../../test/check/helpers/gpu-readings.js';
import { makeContext } from '../../../test/check/helpers/make-context.js';
import { modelFacts } from '../../../test/check/helpers/model-facts.js';
import check from './check.js';

describe('quantization-unsupported', () => {
  it.each<[string, Record<string, unknown>, string, string | null, string]>([
    [
      'fp8 on Turing',
      { quant_method: 'fp8' },
      '7.5',
      'error',
      'Minimum capability: 80. Current capability: 75.',
    ],
    ['fp8 on Ampere falls back to Marlin', { quant_method: 'fp8' }, '8.0', 'warning', 'weight-only FP8'],
    ['fp8 on Ada', { quant_method: 'fp8' }, '8.9', null, ''],
    [
      'NVFP4 (modelopt) on Hopper falls back',
      { quant_method: 'modelopt', quant_algo: 'NVFP4' },
      '9.0',
      'warning',
      'weight-only FP4',
    ],
    ['NVFP4 on Blackwell', { quant_method: 'modelopt', quant_algo: 'NVFP4' }, '10.0', null, ''],
    ['mxfp4 on Volta', { quant_method: 'mxfp4' }, '7.0', 'error', 'Minimum capability: 80'],
    [
      'AWQ on Volta',
      { quant_method: 'awq' },
      '7.0',
      'error',
      'The quantization method awq is not supported for the current GPU. Minimum capability: 75. Current capability: 70.',
    ],
    ['AWQ on Turing', { quant_method: 'awq' }, '7.5', null, ''],
    ['GPTQ-Marlin on Turing', { quant_method: 'gptq_marlin' }, '7.5', 'error', 'Minimum capability: 80'],
    ['an unknown method is left alone', { quant_method: 'bitnet' }, '7.0', null, ''],
  ])('%s', (_name, quantization, capability, severity, detail) => {
    const context = makeContext([], {
      gpu: gpuReading({ computeCapability: capability }),
      model: modelFacts({ quantization_config: quantization }),
    });
    const problems = check.run(context);
    if (severity === null) return expect(problems).toEqual([]);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.severity ?? 'error').toBe(severity);
    expect(problems[0]?.detail).toContain(detail);
  });

  it('takes --quantization from the server command over the config', () => {
    const context = makeContext([], {
      gpu: gpuReading({ computeCapability: '7.0' }),
      model: modelFacts({}),
      server: parseServerFlags(['vllm', 'serve', 'M', '--quantization', 'awq']),
    });
    expect(check.run(context)[0]?.detail).toContain('awq');
  });
});
