import { findNumber, findTextConfig, KV_HEAD_KEYS, ATTENTION_HEAD_KEYS } from '../model-config.js';

type Config = Readonly<Record<string, unknown>>;

/** What one GPU of the server must hold, and how much KV cache the rest leaves. Bytes throughout. */
export interface MemoryEstimate {
  /** GPU memory × utilization: what the engine lets itself use. */
  budget: number;
  /** Weights on one GPU: the checkpoint divided by TP × PP. */
  weights: number;
  /** Activation peak of the profiling run, CUDA context, NCCL and CUDA graphs (see RESERVE). */
  reserve: number;
  /** budget − weights − reserve: the engine's "Available KV cache memory". */
  available: number;
  /** KV bytes for one token on one GPU, over the layers that keep every token. */
  bytesPerToken: KvLayout;
  /** Longest sequence whose KV fits in `available`; 0 when none does. */
  maxLength: number;
}

/** KV per token split by layers that keep every token and layers that keep a sliding window. */
export interface KvLayout {
  /** Bytes per token over full-attention layers. */
  full: number;
  /** Per window length: bytes per token over the layers with that sliding window. */
  sliding: { window: number; bytes: number }[];
}

export interface MemoryInputs {
  config: Config;
  /** Checkpoint bytes (safetensors index total_size, or the files' sizes). */
  weightBytes: number;
  gpuBytes: number;
  utilization: number;
  tensorParallel: number;
  pipelineParallel: number;
  /** --kv-cache-dtype; 'auto' or null: the model's dtype. */
  kvCacheDtype: string | null;
  maxNumBatchedTokens: number | null;
  enforceEager: boolean;
}

const GiB = 1024 ** 3;
/**
 * What a file-level estimate cannot measure, stated: vLLM profiles a forward pass of
 * max_num_batched_tokens (its activation peak) and adds CUDA context, cuBLAS and NCCL buffers
 * (about 1 GiB) and, unless --enforce-eager, CUDA graphs (about 0.5 GiB).
 */
export const RESERVE = { context: 1 * GiB, cudaGraphs: 0.5 * GiB, defaultBatchedTokens: 8192 };

export function estimateMemory(inputs: MemoryInputs): MemoryEstimate {
  const text = findTextConfig(inputs.config);
  const ranks = inputs.tensorParallel * inputs.pipelineParallel;
  const budget = inputs.gpuBytes * inputs.utilization;
  const weights = inputs.weightBytes / ranks;
  const reserve =
    RESERVE.context + (inputs.enforceEager ? 0 : RESERVE.cudaGraphs) + activationPeak(text, inputs);
  const available = budget - weights - reserve;
  const bytesPerToken = kvBytesPerToken(inputs.config, inputs);
  return {
    budget,
    weights,
    reserve,
    available,
    bytesPerToken,
    maxLength: longestFitting(bytesPerToken, available),
  };
}

/** KV bytes one sequence of `length` tokens needs on one GPU (sliding layers keep at most their window). */
export function kvBytesFor(layout: KvLayout, length: number): number {
  return (
    layout.full * length +
    layout.sliding.reduce((sum, layer) => sum + layer.bytes * Math.min(length, layer.window), 0)
  );
}

/**
 * vLLM's page size per layer (vllm/v1/kv_cache_interface.py): 2 (K and V) × KV heads on this GPU ×
 * head size × dtype bytes; MLA keeps one latent of kv_lora_rank + qk_rope_head_dim, replicated on every
 * TP rank. KV heads fewer than TP are replicated (max(1, heads / TP)). Layers split over PP stages.
 */
export function kvBytesPerToken(
  config: Config,
  options: Pick<MemoryInputs, 'tensorParallel' | 'pipelineParallel' | 'kvCacheDtype'>,
): KvLayout {
  const text = findTextConfig(config);
  const layers = Math.ceil(
    (findNumber(text, ['num_hidden_layers', 'n_layer', 'num_layers'])?.value ?? 0) / options.pipelineParallel,
  );
  const dtype = kvDtypeBytes(options.kvCacheDtype, text, config);
  const rank = findNumber(text, ['kv_lora_rank']);
  let perLayer: number;
  if (rank !== null) {
    perLayer = (rank.value + (findNumber(text, ['qk_rope_head_dim'])?.value ?? 0)) * dtype;
  } else {
    const heads = findNumber(text, ATTENTION_HEAD_KEYS)?.value ?? 1;
    const kvHeads = findNumber(text, KV_HEAD_KEYS)?.value ?? heads;
    const hidden = findNumber(text, ['hidden_size', 'n_embd', 'd_model'])?.value ?? 0;
    const headDim = findNumber(text, ['head_dim'])?.value ?? Math.floor(hidden / heads);
    perLayer = 2 * Math.max(1, Math.floor(kvHeads / options.tensorParallel)) * headDim * dtype;
  }
  const windows = slidingWindows(text, layers);
  const sliding = new Map<number, number>();
  for (const window of windows) sliding.set(window, (sliding.get(window) ?? 0) + perLayer);
  return {
    full: perLayer * (layers - windows.length),
    sliding: [...sliding].map(([window, bytes]) => ({ window, bytes })),
  };
}

/** The window of each sliding layer on this stage: `layer_types` when the config lists them. */
function slidingWindows(text: Config, layers: number): number[] {
  const window = findNumber(text, ['sliding_window', 'sliding_window_size'])?.value;
  if (window === undefined || text.use_sliding_window === false) return [];
  const types = Array.isArray(text.layer_types) ? text.layer_types : null;
  if (types !== null) {
    const count = types.filter((type) => typeof type === 'string' && type.includes('sliding')).length;
    return Array.from({ length: Math.round((count * layers) / Math.max(1, types.length)) }, () => window);
  }
  // Without layer types, a sliding window applies to every layer (Mistral 7B v0.1).
  return Array.from({ length: layers }, () => window);
}

function kvDtypeBytes(kvCacheDtype: string | null, text: Config, config: Config): number {
  if (kvCacheDtype !== null && kvCacheDtype !== 'auto') {
    if (/fp8|int8/.test(kvCacheDtype)) return 1;
    if (/fp4|nvfp4/.test(kvCacheDtype)) return 0.5;
    if (/float32|fp32/.test(kvCacheDtype)) return 4;
    return 2;
  }
  const dtype = text.torch_dtype ?? text.dtype ?? config.torch_dtype ?? config.dtype;
  return dtype === 'float32' ? 4 : 2;
}

/** The profiling pass: hidden states and MLP intermediates of the batched tokens, and fp32 logits of the sequences. */
function activationPeak(text: Config, inputs: MemoryInputs): number {
  const tokens = inputs.maxNumBatchedTokens ?? RESERVE.defaultBatchedTokens;
  const hidden = findNumber(text, ['hidden_size', 'n_embd', 'd_model'])?.value ?? 0;
  const intermediate =
    findNumber(text, ['moe_intermediate_size', 'intermediate_size', 'ffn_hidden_size', 'n_inner'])?.value ??
    4 * hidden;
  const vocab = findNumber(text, ['vocab_size'])?.value ?? 0;
  const perToken = ((4 * hidden + 2 * intermediate) * 2) / inputs.tensorParallel;
  return tokens * perToken + 256 * vocab * 4;
}

function longestFitting(layout: KvLayout, available: number): number {
  if (available <= 0) return 0;
  let low = 0;
  let high = 1;
  // Grow until it no longer fits (sliding-only models can fit any length: cap at 2^31).
  while (high < 2 ** 31 && kvBytesFor(layout, high) <= available) high *= 2;
  if (high >= 2 ** 31) return high;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (kvBytesFor(layout, middle) <= available) low = middle;
    else high = middle;
  }
  return low;
}
