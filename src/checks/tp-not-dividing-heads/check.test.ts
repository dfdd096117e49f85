import { describe, expect, it } from 'vitest';
import { makeContext } from '../../../test/check/helpers/make-context.js';
import { gpuReading } from '../../../test/check/helpers/gpu-readings.js';
import { modelFacts } from '../../../test/check/helpers/model-facts.js';
import check from './check.js';

describe('tp-not-dividing-heads', () => {
  it.each([
    ['64 heads, 8 KV heads, tp 8', { num_attention_heads: 64, num_key_value_heads: 8 }, 8, []],
    [
      '64 heads, 8 KV heads, tp 16 (KV heads replicated)',
      { num_attention_heads: 64, num_key_value_heads: 8 },
      16,
      [],
    ],
    [
      '40 heads, tp 16',
      { num_attention_heads: 40, num_key_value_heads: 8 },
      16,
      ['Total number of attention heads (40) must be divisible by tensor parallel size (16).'],
    ],
    ['48 heads, 6 KV heads, tp 4', { num_attention_heads: 48, num_key_value_heads: 6 }, 4, ['KV']],
    [
      'multimodal text_config',
      { text_config: { num_attention_heads: 28, num_key_value_heads: 4 } },
      8,
      ['Total number of attention heads (28)'],
    ],
  ])('%s', (_name, config, tp, details) => {
    const problems = check.run(makeContext([], { model: modelFacts(config), tensorParallelSize: tp }));
    expect(problems).toHaveLength(details.length);
    details.forEach((detail, i) => expect(problems[i]?.detail).toContain(detail));
  });

  it('suggests the nearest TP size that divides the heads', () => {
    const [problem] = check.run(
      makeContext([], { model: modelFacts({ num_attention_heads: 40 }), tensorParallelSize: 16 }),
    );
    expect(problem?.fix).toBe('serve with --tensor-parallel-size 10');
  });

  it.each([
    ['28 heads, 4 KV heads, tp 8 (7 would fail the KV check)', 28, 4, 8, 4],
    ['40 heads, 8 KV heads, tp 16 (10 would fail the KV check)', 40, 8, 16, 8],
    ['48 heads, 6 KV heads, tp 4', 48, 6, 4, 3],
    ['14 heads, 2 KV heads, tp 8', 14, 2, 8, 2],
  ])('suggests a size that passes every constraint: %s', (_name, heads, kv, tp, size) => {
    const config = { num_attention_heads: heads, num_key_value_heads: kv };
    const [problem] = check.run(makeContext([], { model: modelFacts(config), tensorParallelSize: tp }));
    expect(problem?.fix).toBe(`serve with --tensor-parallel-size ${size}`);
    expect(check.run(makeContext([], { model: modelFacts(config), tensorParallelSize: size }))).toEqual([]);
  });

  it('every suggestion passes the check it was made for (heads 1..64, KV divisors, tp 1..16)', () => {
    for (let heads = 1; heads <= 64; heads++) {
      for (let kv = 1; kv <= heads; kv++) {
        if (heads % kv !== 0) continue;
        for (let tp = 1; tp <= 16; tp++) {
          const config = { num_attention_heads: heads, num_key_value_heads: kv };
          const [problem] = check.run(makeContext([], { model: modelFacts(config), tensorParallelSize: tp }));
          const size = Number(/(\d+)$/.exec(problem?.fix ?? '')?.[1] ?? tp);
          const again = check.run(makeContext([], { model: modelFacts(config), tensorParallelSize: size }));
          expect(again, `${heads} heads, ${kv} KV, tp ${tp} → ${size}`).toEqual([]);
        }
      }
    }
  });

  it('suggests no more ranks than there are GPUs', () => {
    const config = { num_attention_heads: 64, num_key_value_heads: 8 };
    const context = makeContext([], {
      model: modelFacts(config),
      tensorParallelSize: 12,
      gpu: gpuReading({}, 4),
    });
    expect(check.run(context).map((problem) => problem.fix)).toEqual([
      'serve with --tensor-parallel-size 4 or fewer, or make more GPUs visible (CUDA_VISIBLE_DEVICES)',
      'serve with --tensor-parallel-size 4',
    ]);
  });

  it('flags more ranks than GPUs', () => {
    const context = makeContext([], { tensorParallelSize: 8, gpu: gpuReading({}, 4) });
    expect(check.run(context)).toMatchObject([{ title: 'More tensor-parallel ranks than GPUs' }]);
  });
});
