import { describe, expect, it } from 'vitest';
import { parseServerFlags } from '../../engines/server-flags.js';
import { gpuReading } from '../../../test/check/helpers/gpu-readings.js';
import { makeContext } from '../../../test/check/helpers/make-context.js';
import { modelFacts } from '../../../test/check/helpers/model-facts.js';
import check from './check.js';

const run = (
  command: string,
  gpus: number,
  env: Record<string, string> = {},
  config: Record<string, unknown> = {},
) =>
  check.run(
    makeContext([], {
      server: parseServerFlags(command.split(' ')),
      gpu: gpuReading({}, gpus),
      env,
      model: modelFacts(config),
    }),
  );

describe('parallel-layout', () => {
  it.each<[string, string, number, Record<string, string>, string[]]>([
    ['fits', 'vllm serve M -tp 4 -dp 2', 8, {}, []],
    ['more ranks than GPUs', 'vllm serve M -tp 4 -pp 2 -dp 2', 8, {}, ['= 16 GPUs', 'nvidia-smi shows 8']],
    [
      'CUDA_VISIBLE_DEVICES narrows them',
      'vllm serve M --tp 4',
      8,
      { CUDA_VISIBLE_DEVICES: '0,1' },
      ['CUDA_VISIBLE_DEVICES=0,1 leaves 2 of the 8'],
    ],
    ['UUIDs count as devices', 'vllm serve M --tp 2', 8, { CUDA_VISIBLE_DEVICES: 'GPU-aa,GPU-bb' }, []],
    [
      'an empty CUDA_VISIBLE_DEVICES hides all',
      'vllm serve M --tp 2',
      8,
      { CUDA_VISIBLE_DEVICES: '' },
      ['leaves 0 of the 8'],
    ],
    [
      'an out-of-range index ends the list',
      'vllm serve M --tp 2',
      2,
      { CUDA_VISIBLE_DEVICES: '0,5,1' },
      ['leaves 1 of the 2'],
    ],
    ['one rank needs no check', 'vllm serve M', 1, { CUDA_VISIBLE_DEVICES: '' }, []],
  ])('%s', (_name, command, gpus, env, details) => {
    const problems = run(command, gpus, env);
    expect(problems).toHaveLength(details.length === 0 ? 0 : 1);
    for (const detail of details) expect(problems[0]?.detail).toContain(detail);
  });

  it.each<[string, string, Record<string, unknown>, string | null]>([
    [
      'SGLang: EP must divide the experts',
      'python -m sglang.launch_server --tp 6 --ep-size 6',
      { num_experts: 128 },
      'error',
    ],
    [
      'vLLM spreads a remainder: warning',
      'vllm serve M -tp 6 --enable-expert-parallel',
      { n_routed_experts: 256 },
      'warning',
    ],
    [
      'vLLM with EPLB needs even experts',
      'vllm serve M -tp 6 -ep --enable-eplb',
      { n_routed_experts: 256 },
      'error',
    ],
    ['dividing', 'vllm serve M -tp 8 -ep', { num_local_experts: 128 }, null],
    ['no experts in the config', 'vllm serve M -tp 6 -ep', {}, null],
  ])('%s', (_name, command, config, severity) => {
    const problems = run(command, 8, {}, config);
    if (severity === null) expect(problems).toEqual([]);
    else
      expect(problems).toMatchObject([
        { severity, title: 'Expert-parallel size does not divide the experts' },
      ]);
  });
});
