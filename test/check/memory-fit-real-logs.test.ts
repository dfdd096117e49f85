import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  estimateMemory,
  kvBytesFor,
  kvBytesPerToken,
  type MemoryInputs,
} from '../../src/checks/kv-cache-too-small/estimate-memory.js';

/**
 * The memory estimate against every real log that prints the engine's own KV figures: ../shared's
 * corpus and healthy folders and the real logs in test/fixtures. One row per log: the engine's KV
 * memory per GPU, our estimate from the files and the command line (what `vigil check` would have),
 * and the error. A row the estimate cannot be held to says why (GPU or model not stated); a row that
 * misses the tolerance is in KNOWN_DIFFERENCES with the reason, and fails once it is met.
 * Configs and checkpoint sizes: test/fixtures/model-configs (README.md there gives their sources).
 */
const SHARED = resolve(import.meta.dirname, '../../../shared');
const FIXTURES = resolve(import.meta.dirname, '../fixtures');
const CONFIGS = join(FIXTURES, 'model-configs');
const GiB = 1024 ** 3;
const TOLERANCE = 0.15;
const KV_FIGURES =
  /Available KV cache memory|GPU KV cache size|Maximum concurrency|maximum number of tokens|# GPU blocks|reserved for KV Cache|KV Cache is allocated|max_total_num_tokens/;

interface Gpu {
  /** What the check reads: nvidia-smi memory.total (or the free memory the log states), MiB. */
  mib: number;
  source: string;
}

interface Row {
  /** `shared/...` or `fixtures/...`. */
  log: string;
  engine: 'vllm' | 'sglang';
  /** Folder in test/fixtures/model-configs; null when the log does not name its model. */
  model: string | null;
  tensorParallel: number;
  pipelineParallel?: number;
  gpu: Gpu | null;
  utilization: number;
  maxNumBatchedTokens?: number;
  maxNumSeqs?: number;
  /** Why the KV figure is not compared, when it is not. */
  unknown?: string;
}

const H100 = { mib: 81559, source: 'H100 80GB (thread), nvidia-smi 81559 MiB' };
const MI300X = { mib: 196592, source: 'MI300X 192 GB (source), 196592 MiB' };

const ROWS: Row[] = [
  {
    log: 'shared/corpus-2/vllm-003.log',
    engine: 'vllm',
    model: 'openai--gpt-oss-120b',
    tensorParallel: 1,
    gpu: H100,
    utilization: 0.9,
  },
  {
    log: 'shared/healthy-2/vllm-004.log',
    engine: 'vllm',
    model: 'meta-llama--Llama-3.1-8B-Instruct',
    tensorParallel: 1,
    gpu: null,
    utilization: 0.9,
    unknown:
      'GPU not stated (the excerpt names neither GPU nor model; Llama-3.1-8B inferred from its figures)',
  },
  {
    log: 'shared/healthy/vllm-001.log',
    engine: 'vllm',
    model: 'Qwen--Qwen2.5-Coder-7B-Instruct',
    tensorParallel: 2,
    gpu: null,
    utilization: 0.9,
    unknown: 'GPU not stated',
  },
  {
    log: 'shared/healthy-2/vllm-007.log',
    engine: 'vllm',
    model: 'Qwen--Qwen3-4B',
    tensorParallel: 1,
    gpu: null,
    utilization: 0.9,
    unknown:
      'GPU memory not stated (AMD Strix Halo: unified memory, the share given to the GPU is not in the log)',
  },
  // vllm-project/vllm#15598: DeepSeek-R1 over four 8-GPU L40S machines (TP 8 × PP 4), vLLM 0.7.3 (V0),
  // --max-model-len 16384 (V0 profiles that many tokens in 256 sequences), --gpu-memory-utilization 0.98.
  {
    log: 'shared/corpus/vllm-050.log',
    engine: 'vllm',
    model: 'deepseek-ai--DeepSeek-R1',
    tensorParallel: 8,
    pipelineParallel: 4,
    gpu: { mib: 45599, source: 'L40S (thread); the log: total_gpu_memory (44.53GiB)' },
    utilization: 0.98,
    maxNumBatchedTokens: 16384,
    maxNumSeqs: 256,
  },
  {
    log: 'shared/healthy/sglang-001.log',
    engine: 'sglang',
    model: 'Qwen--QwQ-32B',
    tensorParallel: 4,
    gpu: { mib: 22149, source: 'log: "Load weight begin. avail mem=21.63 GB" (the GPU is not named)' },
    utilization: 0.85,
  },
  {
    log: 'fixtures/healthy-extra/vllm-009.log',
    engine: 'vllm',
    model: 'Qwen--Qwen2-7B-Instruct',
    tensorParallel: 2,
    gpu: { mib: 40960, source: 'A100 40GB (the log file is named for it), nvidia-smi 40960 MiB' },
    utilization: 0.5,
  },
  {
    log: 'fixtures/healthy-extra/vllm-002.log',
    engine: 'vllm',
    model: 'meta-llama--Meta-Llama-3-8B-Instruct',
    tensorParallel: 1,
    gpu: { mib: 24576, source: 'RTX 3090 (source), nvidia-smi 24576 MiB' },
    utilization: 0.9,
    // vLLM 0.4 (V0) profiles max_model_len tokens in 256 sequences: no chunked prefill.
    maxNumBatchedTokens: 8192,
    maxNumSeqs: 256,
  },
  {
    log: 'fixtures/healthy-extra/vllm-001.log',
    engine: 'vllm',
    model: 'meta-llama--Llama-2-7b-chat-hf',
    tensorParallel: 8,
    gpu: MI300X,
    utilization: 0.9,
    maxNumBatchedTokens: 4096,
    maxNumSeqs: 256,
  },
  {
    log: 'fixtures/healthy-extra/sglang-001.log',
    engine: 'sglang',
    model: 'deepseek-ai--DeepSeek-R1',
    tensorParallel: 8,
    gpu: MI300X,
    // Not in the excerpt: SGLang's default for TP 8 in that release.
    utilization: 0.81,
  },
  ...['vllm-h001', 'vllm-h002', 'sglang-h001', 'sglang-h002'].map((name): Row => ({
    log: `fixtures/heldout-2/${name}.log`,
    engine: name.startsWith('sglang') ? 'sglang' : 'vllm',
    model: null,
    tensorParallel: 1,
    gpu: null,
    utilization: 0.9,
    unknown: 'model and GPU not stated in the excerpt',
  })),
  ...readdirOrEmpty(join(FIXTURES, 'fleet/rollout-8-pods/logs'))
    .filter((name) =>
      KV_FIGURES.test(readFileSync(join(FIXTURES, 'fleet/rollout-8-pods/logs', name), 'utf8')),
    )
    .map((name): Row => ({
      log: `fixtures/fleet/rollout-8-pods/logs/${name}`,
      engine: 'vllm',
      model: null,
      tensorParallel: 1,
      gpu: null,
      utilization: 0.9,
      unknown: 'a constructed kubectl stand-in log, not a real engine run',
    })),
];

/**
 * Rows whose KV figure the estimate misses by more than the tolerance, and why. A fix that brings one
 * within tolerance fails here: move it out of this list.
 */
const KNOWN_DIFFERENCES: Record<string, string> = {
  'shared/corpus-2/vllm-003.log':
    "a figure near zero: the engine had -2.14 GiB, so 15% is 0.3 GiB. vLLM measured about 7.4 GiB beyond the 65.97 GiB of weights (on 79.19 GiB as torch sees the GPU); the estimate reserves 5.5 GiB (sampler logits of a 201k vocabulary × 1024 sequences, MoE intermediates) and does not see the rest (MXFP4 experts through Marlin on Hopper), so it leaves 0.16 GiB. The check still errs for the log's --max-model-len 131072, which needs 4.5 GiB (asserted below)",
};

function readdirOrEmpty(folder: string): string[] {
  return existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.log')) : [];
}

function pathOf(log: string): string {
  return log.startsWith('shared/') ? join(SHARED, log.slice(7)) : join(FIXTURES, log.slice(9));
}

function figure(text: string, pattern: RegExp): number | null {
  const match = pattern.exec(text);
  return match === null ? null : Number(match[1]?.replace(/,/g, ''));
}

function readModel(model: string): { config: Record<string, unknown>; totalSize: number } {
  const config = JSON.parse(readFileSync(join(CONFIGS, model, 'config.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  const indexPath = join(CONFIGS, model, 'model.safetensors.index.json');
  const index = existsSync(indexPath)
    ? (JSON.parse(readFileSync(indexPath, 'utf8')) as { metadata: { total_size: number } })
    : null;
  return { config, totalSize: index?.metadata.total_size ?? 0 };
}

/** The weights one GPU holds as the engine logged them, GiB. */
function engineWeights(text: string): number | null {
  return (
    figure(text, /Model loading took ([\d.]+) GiB/) ??
    figure(text, /model weights take ([\d.]+)GiB/) ??
    // V0 before 0.6 prints GiB under the name GB (it divides by 2**30).
    figure(text, /Loading model weights took ([\d.]+) GB/) ??
    figure(text, /Load weight end\..*mem usage=([\d.]+) GB/)
  );
}

/** The engine's KV memory per GPU in GiB, and its tokens where it prints them. */
function engineKv(
  text: string,
  bytesPerToken: number,
): { gib: number; tokens: number | null; how: string } | null {
  const available =
    figure(text, /Available KV cache memory: (-?[\d.]+) GiB/) ??
    figure(text, /reserved for KV Cache is (-?[\d.]+)GiB/);
  const tokens =
    figure(text, /GPU KV cache size: ([\d,]+) tokens/) ??
    figure(text, /KV Cache is allocated\. #tokens: (\d+)/) ??
    figure(text, /max_total_num_tokens=(\d+)/);
  const blocks = figure(text, /# GPU blocks: (\d+)/);
  const sglang = /K size: ([\d.]+) GB, V size: ([\d.]+) GB/.exec(text);
  if (available !== null) return { gib: available, tokens, how: 'Available KV cache memory' };
  if (sglang !== null) return { gib: Number(sglang[1]) + Number(sglang[2]), tokens, how: 'K size + V size' };
  if (blocks !== null)
    return {
      gib: (blocks * 16 * bytesPerToken) / GiB,
      tokens: blocks * 16,
      how: '# GPU blocks × 16 tokens × our bytes per token',
    };
  if (tokens !== null)
    return { gib: (tokens * bytesPerToken) / GiB, tokens, how: 'tokens × our bytes per token' };
  return null;
}

interface Measured {
  row: Row;
  engine: number | null;
  ours: number | null;
  error: number | null;
  weights: { engine: number | null; ours: number } | null;
  perToken: { engine: number; ours: number } | null;
}

function measure(row: Row): Measured {
  const text = readFileSync(pathOf(row.log), 'utf8');
  const empty = { row, engine: null, ours: null, error: null, weights: null, perToken: null };
  if (row.model === null) return empty;
  const { config, totalSize } = readModel(row.model);
  const ranks = row.tensorParallel * (row.pipelineParallel ?? 1);
  const parallel = {
    tensorParallel: row.tensorParallel,
    pipelineParallel: row.pipelineParallel ?? 1,
    kvCacheDtype: null,
  };
  const perToken =
    kvBytesPerToken(config, parallel).full +
    kvBytesPerToken(config, parallel).sliding.reduce((sum, layer) => sum + layer.bytes, 0);
  const kv = engineKv(text, perToken);
  const loaded = engineWeights(text);
  // Without a public checkpoint size, the engine's own weight figure isolates the rest of the estimate.
  const weightBytes = totalSize > 0 ? totalSize : (loaded ?? 0) * GiB * ranks;
  const weights = { engine: loaded, ours: weightBytes / ranks / GiB };
  const engineTokens = kv?.tokens ?? null;
  const perTokenRow =
    kv !== null &&
    engineTokens !== null &&
    !kv.how.includes('our bytes') &&
    row.engine === 'vllm' &&
    kvBytesPerToken(config, parallel).sliding.length === 0
      ? { engine: (kv.gib * GiB) / engineTokens, ours: perToken }
      : kv !== null && engineTokens !== null && kv.how === 'K size + V size'
        ? { engine: (kv.gib * GiB) / engineTokens, ours: perToken }
        : null;
  if (row.gpu === null || kv === null)
    return { ...empty, engine: kv?.gib ?? null, weights, perToken: perTokenRow };
  const inputs: MemoryInputs = {
    config,
    weightBytes,
    gpuBytes: row.gpu.mib * 1024 ** 2,
    utilization: row.utilization,
    ...parallel,
    maxNumBatchedTokens: row.maxNumBatchedTokens ?? null,
    maxNumSeqs: row.maxNumSeqs ?? null,
    engine: row.engine,
  };
  const ours = estimateMemory(inputs).available / GiB;
  return { row, engine: kv.gib, ours, error: ours / kv.gib - 1, weights, perToken: perTokenRow };
}

const sharedPresent = existsSync(SHARED);
if (!sharedPresent)
  console.warn('memory estimate against real logs: ../shared is absent, its rows are skipped');
const rows = ROWS.filter((row) => sharedPresent || !row.log.startsWith('shared/'));
const measured = rows.map(measure);

/** The table this test holds the estimate to, printed for the record (docs and notes quote it). */
function table(): string {
  const gib = (value: number | null) => (value === null ? '—' : value.toFixed(2));
  const lines = measured.map(({ row, engine, ours, error, weights }) => {
    const verdict =
      error === null
        ? (row.unknown ?? 'no KV figure')
        : Math.abs(error) <= TOLERANCE
          ? 'within 15%'
          : `outside: ${KNOWN_DIFFERENCES[row.log] ?? ''}`;
    const err = error === null ? '—' : `${(error * 100).toFixed(1)}%`;
    return `| ${row.log} | ${row.model ?? '—'} | ${row.gpu?.source ?? 'unknown'} | ${gib(weights?.engine ?? null)} / ${gib(weights?.ours ?? null)} | ${gib(engine)} | ${gib(ours)} | ${err} | ${verdict} |`;
  });
  return [
    '| log | model | GPU | weights GiB, engine / ours | engine KV GiB | estimate GiB | error | verdict |',
    '|---|---|---|---|---|---|---|---|',
    ...lines,
  ].join('\n');
}
if (process.env.VIGIL_PRINT_MEMORY_TABLE === '1') console.log(table());

describe('memory estimate against the KV figures real logs print', () => {
  it('has a row for every real log that prints the engine KV figures', () => {
    const folders = [
      ...(sharedPresent
        ? ['corpus', 'corpus-2', 'healthy', 'healthy-2'].map((name) => `shared/${name}`)
        : []),
      'fixtures/healthy-extra',
      'fixtures/heldout-2',
      'fixtures/heldout',
      'fixtures/fleet/rollout-8-pods/logs',
    ];
    const printing = folders.flatMap((folder) =>
      readdirOrEmpty(pathOf(folder))
        .map((name) => `${folder}/${name}`)
        .filter((log) => KV_FIGURES.test(readFileSync(pathOf(log), 'utf8'))),
    );
    expect(printing.sort()).toEqual(rows.map((row) => row.log).sort());
  });

  it.each(measured.filter((entry) => entry.error !== null))(
    '$row.log: KV memory within 15% of the engine, or a stated reason',
    ({ row, error }) => {
      const within = Math.abs(error ?? Infinity) <= TOLERANCE;
      expect({ log: row.log, within }).toEqual({
        log: row.log,
        within: KNOWN_DIFFERENCES[row.log] === undefined,
      });
    },
  );

  it.each(measured.filter((entry) => entry.error === null))(
    '$row.log: not compared, and says why',
    ({ row }) => {
      expect(row.unknown).toMatch(/not stated|constructed/);
    },
  );

  it.each(measured.filter((entry) => entry.weights?.engine != null))(
    '$row.log: weights per GPU within 15% of what the engine loaded',
    ({ weights }) => {
      expect(Math.abs((weights?.ours ?? 0) / (weights?.engine ?? 1) - 1)).toBeLessThanOrEqual(TOLERANCE);
    },
  );

  it.each(measured.filter((entry) => entry.perToken !== null))(
    '$row.log: KV bytes per token within 1% of the engine (its memory over its tokens)',
    ({ perToken }) => {
      expect(Math.abs((perToken?.ours ?? 0) / (perToken?.engine ?? 1) - 1)).toBeLessThanOrEqual(0.01);
    },
  );

  it.skipIf(!sharedPresent)(
    'gpt-oss-120b on one H100: the check errs for 131072 tokens, as the engine did',
    () => {
      const { config } = readModel('openai--gpt-oss-120b');
      const estimate = estimateMemory({
        config,
        weightBytes: 65.9651 * GiB,
        gpuBytes: H100.mib * 1024 ** 2,
        utilization: 0.9,
        tensorParallel: 1,
        pipelineParallel: 1,
        kvCacheDtype: null,
        maxNumBatchedTokens: null,
      });
      expect(kvBytesFor(estimate.bytesPerToken, 131072)).toBeGreaterThan(estimate.available);
    },
  );

  it('prints one table line per row', () => {
    expect(table().split('\n')).toHaveLength(rows.length + 2);
  });
});
