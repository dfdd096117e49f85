import { describe, expect, it } from 'vitest';
import { parseServerFlags } from '../../engines/server-flags.js';
import { gpuReading } from '../../../test/check/helpers/gpu-readings.js';
import { makeContext } from '../../../test/check/helpers/make-context.js';
import { modelFacts } from '../../../test/check/helpers/model-facts.js';
import check from './check.js';
import { kvBytesPerToken } from './estimate-memory.js';

// meta-llama/Llama-3.1-8B config.json fields that matter here; 16,060,522,496 bytes in its safetensors index.
const LLAMA_8B = {
  architectures: ['LlamaForCausalLM'],
  hidden_size: 4096,
  intermediate_size: 14336,
  num_hidden_layers: 32,
  num_attention_heads: 32,
  num_key_value_heads: 8,
  max_position_embeddings: 131072,
  vocab_size: 128256,
  torch_dtype: 'bfloat16',
  rope_scaling: { rope_type: 'llama3', factor: 8.0, original_max_position_embeddings: 8192 },
};
const GPU_24_GIB = gpuReading({ name: 'NVIDIA L4-class 24 GiB', memoryTotalMiB: 24 * 1024 });

function run(
  command: string,
  config: Record<string, unknown> = LLAMA_8B,
  bytes = 16_060_522_496,
  gpu = GPU_24_GIB,
) {
  const server = parseServerFlags(command.split(' '));
  return check.run(
    makeContext([], {
      gpu,
      model: { ...modelFacts(config), weights: { bytes, source: 'model.safetensors.index.json total_size' } },
      server,
      maxModelLen: server.maxModelLen,
      tensorParallelSize: server.tensorParallel,
    }),
  );
}

describe('kv-cache-too-small', () => {
  it('errs for Llama-3.1-8B at 131072 on a 24 GiB GPU at 0.9, stating the largest length that fits', () => {
    const [problem, ...rest] = run('vllm serve M --gpu-memory-utilization 0.9 --max-model-len 131072');
    expect(rest).toEqual([]);
    expect(problem?.severity ?? 'error').toBe('error');
    expect(problem?.detail).toContain(
      'One 131072-token sequence (--max-model-len) needs about 16.00 GiB of KV cache',
    );
    expect(problem?.detail).toMatch(/the largest --max-model-len that fits is about \d{5}/);
    expect(problem?.fix).toMatch(/--max-model-len \d+ or less/);
  });

  it('passes at 8192 on the same GPU, stating the largest length that fits', () => {
    const [problem] = run('vllm serve M --gpu-memory-utilization 0.9 --max-model-len 8192');
    expect(problem?.severity).toBe('info');
    expect(problem?.detail).toMatch(/the largest --max-model-len that fits is about 4\d{4}/);
  });

  it('uses the model length when no --max-model-len is given', () => {
    expect(run('vllm serve M --gpu-memory-utilization 0.9')[0]?.detail).toContain(
      "(the model's max_position_embeddings)",
    );
  });

  it('splits KV heads and weights over TP: two 24 GiB GPUs hold 131072', () => {
    const [problem] = run('vllm serve M --gpu-memory-utilization 0.9 --max-model-len 131072 -tp 2');
    expect(problem?.severity).not.toBe('error');
  });

  it('halves the KV cache with --kv-cache-dtype fp8', () => {
    const full = run('vllm serve M --gpu-memory-utilization 0.9 --max-model-len 65536')[0];
    const fp8 = run(
      'vllm serve M --gpu-memory-utilization 0.9 --max-model-len 65536 --kv-cache-dtype fp8',
    )[0];
    expect(full?.detail).toContain('8.00 GiB of KV cache');
    expect(fp8?.detail).toContain('4.00 GiB of KV cache');
  });

  it('sizes an SGLang pool as SGLang does: free memory × --mem-fraction-static − weights, no reserve', () => {
    const held = gpuReading({ name: 'GPU', memoryTotalMiB: 24 * 1024, memoryUsedMiB: 2 * 1024 });
    const [problem] = run(
      'python -m sglang.launch_server --model-path M --mem-fraction-static 0.85 --context-length 8192',
      LLAMA_8B,
      16_060_522_496,
      held,
    );
    // 22 GiB free × 0.85 = 18.70 GiB; minus 14.96 GiB of weights.
    expect(problem?.detail).toContain('GPU (free): 22.00 GiB × 0.85 utilization = 18.70 GiB');
    expect(problem?.detail).toContain('about 3.74 GiB is left');
  });

  it("takes SGLang's default fraction for the TP size when the command gives none", () => {
    const [problem] = run('python -m sglang.launch_server --model-path M --tp 4 --context-length 8192');
    expect(problem?.detail).toContain('× 0.85 utilization');
  });

  it('says so when the weights alone do not fit', () => {
    const [problem] = run('vllm serve M --max-model-len 8192', LLAMA_8B, 30 * 1024 ** 3);
    expect(problem?.title).toBe('Model weights do not fit in GPU memory');
  });

  it('says nothing without the checkpoint size or a GPU reading', () => {
    expect(check.run(makeContext([], { gpu: GPU_24_GIB, model: modelFacts(LLAMA_8B) }))).toEqual([]);
    expect(
      check.run(makeContext([], { model: { ...modelFacts(LLAMA_8B), weights: { bytes: 1, source: 'x' } } })),
    ).toEqual([]);
  });
});

describe('kvBytesPerToken', () => {
  const options = { tensorParallel: 1, pipelineParallel: 1, kvCacheDtype: null };
  it.each<[string, Record<string, unknown>, number, { window: number; bytes: number }[]]>([
    ['Llama-3.1-8B: 2 × 32 layers × 8 KV heads × 128 × 2 bytes', LLAMA_8B, 131072, []],
    [
      'DeepSeek-V3 MLA: 61 layers × (512 + 64) × 2 bytes, not split by TP',
      {
        num_hidden_layers: 61,
        kv_lora_rank: 512,
        qk_rope_head_dim: 64,
        num_attention_heads: 128,
        hidden_size: 7168,
        torch_dtype: 'bfloat16',
      },
      61 * 576 * 2,
      [],
    ],
    [
      'gpt-oss-120b: half the 36 layers keep a 128-token window',
      {
        num_hidden_layers: 36,
        num_attention_heads: 64,
        num_key_value_heads: 8,
        head_dim: 64,
        hidden_size: 2880,
        sliding_window: 128,
        layer_types: Array.from({ length: 36 }, (_, i) =>
          i % 2 === 0 ? 'sliding_attention' : 'full_attention',
        ),
      },
      18 * 2 * 8 * 64 * 2,
      [{ window: 128, bytes: 18 * 2 * 8 * 64 * 2 }],
    ],
    [
      'Qwen2.5 declares a window but does not use it',
      {
        num_hidden_layers: 28,
        num_attention_heads: 28,
        num_key_value_heads: 4,
        hidden_size: 3584,
        sliding_window: 131072,
        use_sliding_window: false,
      },
      2 * 28 * 4 * 128 * 2,
      [],
    ],
  ])('%s', (_name, config, full, sliding) => {
    expect(kvBytesPerToken(config, options)).toEqual({ full, sliding });
  });

  it('replicates KV heads fewer than TP and splits layers over PP', () => {
    expect(
      kvBytesPerToken(LLAMA_8B, { tensorParallel: 16, pipelineParallel: 2, kvCacheDtype: null }).full,
    ).toBe(2 * 16 * 1 * 128 * 2);
  });
});
