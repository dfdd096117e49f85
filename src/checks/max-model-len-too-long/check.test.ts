import { describe, expect, it } from 'vitest';
import { makeContext } from '../../../test/check/helpers/make-context.js';
import { modelFacts } from '../../../test/check/helpers/model-facts.js';
import { deriveMaxModelLen } from '../model-config.js';
import check from './check.js';

describe('deriveMaxModelLen', () => {
  it.each([
    ['max_position_embeddings', { max_position_embeddings: 32768 }, null, 32768],
    ['the smallest key', { max_position_embeddings: 32768, seq_length: 8192 }, null, 8192],
    ['the tokenizer cap', { max_position_embeddings: 32768 }, 4096, 4096],
    ['no key: 2048', {}, null, 2048],
    [
      'linear RoPE scaling',
      { max_position_embeddings: 4096, rope_scaling: { type: 'linear', factor: 4 } },
      null,
      16384,
    ],
    [
      'yarn',
      {
        max_position_embeddings: 131072,
        rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32768 },
      },
      null,
      131072,
    ],
    [
      'llama3 states its length already',
      { max_position_embeddings: 131072, rope_scaling: { rope_type: 'llama3', factor: 8 } },
      null,
      131072,
    ],
  ])('%s', (_name, config, tokenizer, expected) => {
    expect(deriveMaxModelLen(config, tokenizer).value).toBe(expected);
  });
});

describe('max-model-len-too-long', () => {
  it.each([
    [32768, {}, []],
    [65536, {}, ['error']],
    [65536, { VLLM_ALLOW_LONG_MAX_MODEL_LEN: '1' }, ['warning']],
  ])('--max-model-len %i', (maxModelLen, env, severities) => {
    const context = makeContext([], {
      model: modelFacts({ max_position_embeddings: 32768 }),
      maxModelLen,
      env,
    });
    expect(check.run(context).map((p) => p.severity ?? 'error')).toEqual(severities);
  });

  it('quotes vLLM and gives the length that fits', () => {
    const [problem] = check.run(
      makeContext([], { model: modelFacts({ max_position_embeddings: 32768 }), maxModelLen: 65536 }),
    );
    expect(problem?.detail).toContain(
      'User-specified max_model_len (65536) is greater than the derived max_model_len (max_position_embeddings=32768',
    );
    expect(problem?.fix).toBe('serve with --max-model-len 32768');
  });
});
