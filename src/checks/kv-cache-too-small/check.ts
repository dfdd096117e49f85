import { GPU_MEMORY_UTILIZATION } from '../../environment/gpu-memory.js';
import { defineCheck, type CheckContext, type Problem } from '../define-check.js';
import { deriveMaxModelLen } from '../model-config.js';
import { estimateMemory, kvBytesFor, type MemoryEstimate } from './estimate-memory.js';

const MiB = 1024 ** 2;

/** GiB with two decimals, as vLLM prints its memory figures (MiB, KiB below). */
function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3 || bytes === 0) return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
  if (Math.abs(bytes) >= MiB) return `${(bytes / MiB).toFixed(2)} MiB`;
  return `${(bytes / 1024).toFixed(2)} KiB`;
}

/**
 * Weights and the KV cache of one max-length sequence against the GPU's memory budget, before the
 * ten-minute load: vLLM only finds out after loading and profiling ("To serve at least one request with
 * the model's max seq len (131072), (16.00 GiB KV cache is needed, which is larger than the available KV
 * cache memory"), SGLang says "Not enough memory". An estimate: it says "about".
 */
export default defineCheck({
  id: 'kv-cache-too-small',
  severity: 'error',
  title: 'Model does not fit in GPU memory at this length',
  run: (context) => {
    const setup = readSetup(context);
    if (setup === null) return [];
    const { estimate, length, lengthSource, utilization, gpuBytes, device } = setup;
    const needed = kvBytesFor(estimate.bytesPerToken, length);
    const budget =
      `${device}: ${formatBytes(gpuBytes)} × ${utilization} utilization = ${formatBytes(estimate.budget)}; ` +
      `weights ${formatBytes(estimate.weights)} per GPU, reserve ${formatBytes(estimate.reserve)} (profiling-pass activations and buffers)`;
    const largest = `the largest --max-model-len that fits is about ${estimate.maxLength}`;
    if (estimate.available <= 0) {
      return [
        {
          title: 'Model weights do not fit in GPU memory',
          detail: `${budget}: about ${formatBytes(-estimate.available)} short before any KV cache ("No available memory for the cache blocks").`,
          fix: 'use more GPUs (--tensor-parallel-size), a quantized checkpoint, or a higher --gpu-memory-utilization if the GPU is not shared',
          packages: [],
        },
      ];
    }
    const detail =
      `One ${length}-token sequence (${lengthSource}) needs about ${formatBytes(needed)} of KV cache ` +
      `(${describePerToken(estimate)}); about ${formatBytes(estimate.available)} is left (${budget}); ${largest}.`;
    if (needed > estimate.available) {
      return [
        {
          detail: `${detail} The engine stops after loading the weights: "${formatBytes(needed)} KV cache is needed, which is larger than the available KV cache memory".`,
          fix: `serve with --max-model-len ${roundDown(estimate.maxLength)} or less, or raise --gpu-memory-utilization, add GPUs (--tensor-parallel-size), or use --kv-cache-dtype fp8`,
          packages: [],
        },
      ];
    }
    const problem: Problem = {
      severity: needed > estimate.available * 0.9 ? 'warning' : 'info',
      title:
        needed > estimate.available * 0.9
          ? 'KV cache barely fits at this length'
          : 'Model fits in GPU memory',
      detail,
      fix: null,
      packages: [],
    };
    return [problem];
  },
});

interface Setup {
  estimate: MemoryEstimate;
  length: number;
  lengthSource: string;
  utilization: number;
  gpuBytes: number;
  device: string;
}

function readSetup(context: CheckContext): Setup | null {
  const { model, gpu, server } = context;
  const weights = model?.weights;
  if (model === null || weights == null || gpu?.status !== 'ok') return null;
  // The smallest GPU bounds every rank.
  const devices = gpu.gpus.filter((device) => device.memoryTotalMiB !== null);
  const smallest = devices.sort((a, b) => (a.memoryTotalMiB ?? 0) - (b.memoryTotalMiB ?? 0))[0];
  if (smallest?.memoryTotalMiB == null) return null;
  const derived = deriveMaxModelLen(model.config, model.tokenizerMaxLength);
  const length = context.maxModelLen ?? derived.value;
  const utilization =
    server?.gpuMemoryUtilization ??
    (server?.engine === 'sglang'
      ? sglangMemFraction(context.tensorParallelSize ?? 1)
      : GPU_MEMORY_UTILIZATION);
  const sglang = server?.engine === 'sglang';
  // SGLang sizes its pool from the memory free when it starts loading, vLLM from the GPU's total.
  const gpuBytes = (smallest.memoryTotalMiB - (sglang ? (smallest.memoryUsedMiB ?? 0) : 0)) * MiB;
  const estimate = estimateMemory({
    config: model.config,
    weightBytes: weights.bytes,
    gpuBytes,
    utilization,
    tensorParallel: context.tensorParallelSize ?? 1,
    pipelineParallel: server?.pipelineParallel ?? 1,
    kvCacheDtype: server?.kvCacheDtype ?? null,
    maxNumBatchedTokens: server?.maxNumBatchedTokens ?? null,
    maxNumSeqs: server?.maxNumSeqs ?? null,
    engine: sglang ? 'sglang' : 'vllm',
  });
  return {
    estimate,
    length,
    lengthSource: context.maxModelLen !== null ? '--max-model-len' : `the model's ${derived.key}`,
    utilization,
    gpuBytes,
    device: sglang ? `${smallest.name} (free)` : smallest.name,
  };
}

function describePerToken(estimate: MemoryEstimate): string {
  const { full, sliding } = estimate.bytesPerToken;
  const windows = sliding.map(
    (layer) => `${formatBytes(layer.bytes)} per token up to ${layer.window} tokens`,
  );
  return [`${formatBytes(full)} per token`, ...windows].join(', ');
}

/** 40123 → 40000: a length to type. */
function roundDown(length: number): number {
  if (length < 1024) return length;
  const step = 10 ** Math.floor(Math.log10(length) - 1);
  return Math.floor(length / step) * step;
}

/**
 * SGLang's --mem-fraction-static default by TP size (server_args.py, early 2025 releases; later ones
 * derive it from the GPU's memory and land near these).
 */
function sglangMemFraction(tensorParallel: number): number {
  if (tensorParallel >= 16) return 0.79;
  if (tensorParallel >= 8) return 0.81;
  if (tensorParallel >= 4) return 0.85;
  if (tensorParallel >= 2) return 0.87;
  return 0.88;
}
