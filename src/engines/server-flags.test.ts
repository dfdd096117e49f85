import { describe, expect, it } from 'vitest';
import { parseServerFlags, type ServerFlags } from './server-flags.js';

const split = (line: string): string[] => line.split(/\s+/).filter(Boolean);

describe('parseServerFlags', () => {
  it.each<[string, Partial<ServerFlags>]>([
    [
      'vllm serve /models/M --tp 8 --max-model-len 131072',
      { engine: 'vllm', model: '/models/M', tensorParallel: 8, maxModelLen: 131072 },
    ],
    ['vllm serve M -tp 4 -pp 2 -dp 2', { tensorParallel: 4, pipelineParallel: 2, dataParallel: 2 }],
    [
      'vllm serve M --tensor-parallel-size=2 --pipeline-parallel-size=3',
      { tensorParallel: 2, pipelineParallel: 3 },
    ],
    [
      'vllm serve M --max_model_len 32768 --gpu_memory_utilization 0.85',
      { maxModelLen: 32768, gpuMemoryUtilization: 0.85 },
    ],
    ['vllm serve M --max-model-len 32k', { maxModelLen: 32000 }],
    ['vllm serve M --max-model-len 128K', { maxModelLen: 131072 }],
    [
      'vllm serve M --kv-cache-dtype fp8 --quantization fp8 --dtype bfloat16',
      { kvCacheDtype: 'fp8', quantization: 'fp8', dtype: 'bfloat16' },
    ],
    ['vllm serve M -tp 4 -dp 2 --enable-expert-parallel', { expertParallel: 8 }],
    ['vllm serve M -tp 8 -ep --enable-eplb', { expertParallel: 8, enableEplb: true }],
    [
      'vllm serve M --port 8001 --enforce-eager --max-num-seqs 64 --max-num-batched-tokens 4096',
      { port: 8001, enforceEager: true, maxNumSeqs: 64, maxNumBatchedTokens: 4096 },
    ],
    ['/opt/venv/bin/vllm serve M', { engine: 'vllm', model: 'M' }],
    [
      'python3 -m vllm.entrypoints.openai.api_server --model /m --tensor-parallel-size 2',
      { engine: 'vllm', model: '/m', tensorParallel: 2 },
    ],
    [
      'python3 -m sglang.launch_server --model-path /m --tp-size 8 --dp-size 2 --ep-size 8',
      { engine: 'sglang', model: '/m', tensorParallel: 8, dataParallel: 2, expertParallel: 8 },
    ],
    [
      'python -m sglang.launch_server --model-path=/m --tp 4 --context-length 65536 --mem-fraction-static 0.8',
      { tensorParallel: 4, maxModelLen: 65536, gpuMemoryUtilization: 0.8 },
    ],
    [
      'text-generation-launcher --model-id /m --num-shard 2 --max-total-tokens 8192',
      { engine: 'tgi', model: '/m', tensorParallel: 2, maxModelLen: 8192 },
    ],
    ['vllm serve M --host 0.0.0.0 --served-model-name x --tp 2', { model: 'M', tensorParallel: 2 }],
    [
      'vllm serve M',
      { tensorParallel: null, maxModelLen: null, expertParallel: null, port: null, invalid: [] },
    ],
  ])('%s', (line, expected) => {
    expect(parseServerFlags(split(line))).toMatchObject(expected);
  });

  it.each([
    ['vllm serve M --tp eight', '--tp', 'eight'],
    ['vllm serve M --max-model-len=-5', '--max-model-len', '-5'],
    ['vllm serve M --gpu-memory-utilization 1.5', '--gpu-memory-utilization', '1.5'],
  ])('lists the unreadable value of %s instead of guessing', (line, flag, value) => {
    const flags = parseServerFlags(split(line));
    expect(flags.invalid).toContainEqual({ flag, value });
  });

  it('treats a port above 65535 as absent', () => {
    expect(parseServerFlags(split('vllm serve M --port 70000')).port).toBeNull();
  });

  it('says so when a flag ends the line without its value', () => {
    expect(parseServerFlags(split('vllm serve M --tp')).invalid).toEqual([{ flag: '--tp', value: '' }]);
  });
});
