import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { estimateMemory } from '../../src/checks/kv-cache-too-small/estimate-memory.js';

/**
 * The memory estimate against every log in ../shared that prints vLLM's own KV figures. What each log
 * states is compared: the weights one GPU holds ("Model loading took X GiB") always; the available KV
 * cache memory only where the source names the GPU (the others do not say which GPU ran them).
 * Configs and checkpoint sizes: test/fixtures/model-configs (README.md there gives their sources).
 */
const SHARED = resolve(import.meta.dirname, '../../../shared');
const CONFIGS = resolve(import.meta.dirname, '../fixtures/model-configs');
const GiB = 1024 ** 3;
const TOLERANCE = 0.15;

interface Row {
  log: string;
  model: string;
  tensorParallel: number;
  maxModelLen: number;
  /** nvidia-smi memory.total of the GPU the source names, in MiB; null: the source does not say. */
  gpuMiB: number | null;
  utilization: number;
}

const ROWS: Row[] = [
  {
    log: 'healthy-2/vllm-004.log',
    model: 'meta-llama--Llama-3.1-8B-Instruct',
    tensorParallel: 1,
    maxModelLen: 131072,
    gpuMiB: null,
    utilization: 0.9,
  },
  {
    log: 'healthy/vllm-001.log',
    model: 'Qwen--Qwen2.5-Coder-7B-Instruct',
    tensorParallel: 2,
    maxModelLen: 32768,
    gpuMiB: null,
    utilization: 0.9,
  },
  {
    log: 'healthy-2/vllm-007.log',
    model: 'Qwen--Qwen3-4B',
    tensorParallel: 1,
    maxModelLen: 40960,
    gpuMiB: null,
    utilization: 0.9,
  },
  // vllm-project/vllm#23278: gpt-oss-120b on one H100 80GB (81559 MiB), the default utilization.
  {
    log: 'corpus-2/vllm-003.log',
    model: 'openai--gpt-oss-120b',
    tensorParallel: 1,
    maxModelLen: 131072,
    gpuMiB: 81559,
    utilization: 0.9,
  },
];

/**
 * Rows whose figure the estimate misses by more than the tolerance, and why. A fix that brings one
 * within tolerance fails here: move it out of this list.
 */
const KNOWN_DIFFERENCES: Record<string, string> = {
  'corpus-2/vllm-003.log available KV':
    'gpt-oss-120b on Hopper: vLLM measured about 7 GiB of activations and buffers beyond the 65.97 GiB of weights (MXFP4 experts through Marlin, 128 experts); the stated reserve is under 2 GiB, so the estimate says a few GiB fit where the engine had -2.14 GiB',
};

const present = existsSync(SHARED);
if (!present) console.warn('skipping the memory estimate against real logs: ../shared is absent');

function logFigure(text: string, pattern: RegExp): number | null {
  const match = pattern.exec(text);
  return match === null ? null : Number(match[1]?.replace(/,/g, ''));
}

function readConfig(model: string): { config: Record<string, unknown>; totalSize: number | null } {
  const config = JSON.parse(readFileSync(join(CONFIGS, model, 'config.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  const indexPath = join(CONFIGS, model, 'model.safetensors.index.json');
  const index = existsSync(indexPath)
    ? (JSON.parse(readFileSync(indexPath, 'utf8')) as { metadata: { total_size: number } })
    : null;
  return { config, totalSize: index?.metadata.total_size ?? null };
}

describe.skipIf(!present)('memory estimate against the KV figures real vLLM logs print', () => {
  it('finds every corpus log that prints the figures in the table', () => {
    const folders = ['corpus', 'corpus-2', 'healthy', 'healthy-2'];
    const printing = folders.flatMap((folder) =>
      existsSync(join(SHARED, folder))
        ? readdirSync(join(SHARED, folder))
            .filter((name) => name.endsWith('.log'))
            .filter((name) =>
              /Available KV cache memory|GPU KV cache size|maximum number of tokens|Maximum concurrency/.test(
                readFileSync(join(SHARED, folder, name), 'utf8'),
              ),
            )
            .map((name) => `${folder}/${name}`)
        : [],
    );
    expect(printing.sort()).toEqual(ROWS.map((row) => row.log).sort());
  });

  it.each(ROWS)('$log: weights per GPU within 15% of "Model loading took"', (row) => {
    const text = readFileSync(join(SHARED, row.log), 'utf8');
    const engine = logFigure(text, /Model loading took ([\d.]+) GiB/);
    const { totalSize } = readConfig(row.model);
    expect(engine).not.toBeNull();
    if (totalSize === null) return; // No public checkpoint size (see the fixtures' README).
    const ours = totalSize / row.tensorParallel / GiB;
    expect(Math.abs(ours / (engine ?? 1) - 1)).toBeLessThanOrEqual(TOLERANCE);
  });

  it.each(ROWS.filter((row) => row.gpuMiB !== null))('$log: available KV cache memory', (row) => {
    const text = readFileSync(join(SHARED, row.log), 'utf8');
    const engineAvailable = logFigure(text, /Available KV cache memory: (-?[\d.]+) GiB/);
    const engineWeights = logFigure(text, /Model loading took ([\d.]+) GiB/) ?? 0;
    const { config, totalSize } = readConfig(row.model);
    const estimate = estimateMemory({
      config,
      // Without a public checkpoint size, the engine's own weight figure isolates the rest of the estimate.
      weightBytes: totalSize ?? engineWeights * GiB * row.tensorParallel,
      gpuBytes: (row.gpuMiB ?? 0) * 1024 ** 2,
      utilization: row.utilization,
      tensorParallel: row.tensorParallel,
      pipelineParallel: 1,
      kvCacheDtype: null,
      maxNumBatchedTokens: null,
      enforceEager: false,
    });
    const ours = estimate.available / GiB;
    const within = Math.abs(ours - (engineAvailable ?? 0)) <= Math.abs(engineAvailable ?? 0) * TOLERANCE;
    expect({ row: `${row.log} available KV`, within }).toEqual({
      row: `${row.log} available KV`,
      within: KNOWN_DIFFERENCES[`${row.log} available KV`] === undefined,
    });
  });
});
