import { describe, expect, it } from 'vitest';
import type { ArchitectureSupport } from '../../environment/read-model.js';
import { makeContext } from '../../../test/check/helpers/make-context.js';
import { modelFacts } from '../../../test/check/helpers/model-facts.js';
import check from './check.js';

const config = { architectures: ['Qwen3ForCausalLM'], model_type: 'qwen3' };
const vllm = (
  knowsArchitecture: boolean | null,
  knowsModelType = false,
): ArchitectureSupport['engines'][number] => ({
  name: 'vllm',
  version: '0.8.0',
  knowsArchitecture,
  knowsModelType,
});
const transformers = (knowsModelType: boolean | null, knowsArchitecture: boolean | null) => ({
  version: '4.50.0',
  knowsModelType,
  knowsArchitecture,
});

describe('model-architecture-unknown', () => {
  it.each([
    ['known everywhere', { engines: [vllm(true)], transformers: transformers(true, true) }, []],
    [
      'unknown to vllm and transformers',
      { engines: [vllm(false)], transformers: transformers(true, false) },
      ['error'],
    ],
    [
      'unknown to vllm, known to transformers (fallback backend)',
      { engines: [vllm(false)], transformers: transformers(true, true) },
      ['warning'],
    ],
    [
      'model type unknown to transformers',
      { engines: [vllm(true)], transformers: transformers(false, false) },
      ['error'],
    ],
    [
      'model type known to the engine’s own configs',
      { engines: [vllm(true, true)], transformers: transformers(false, false) },
      [],
    ],
    ['registry not found', { engines: [vllm(null)], transformers: transformers(null, null) }, []],
  ])('%s', (_name, support, severities) => {
    const context = makeContext([], { model: modelFacts(config, support) });
    expect(check.run(context).map((p) => p.severity ?? 'error')).toEqual(severities);
  });

  it('leaves models with their own code (auto_map) alone', () => {
    const context = makeContext([], {
      model: modelFacts({ ...config, auto_map: {} }, { engines: [vllm(false)] }),
    });
    expect(check.run(context)).toEqual([]);
  });
});
