import { findNumber, findTextConfig, KV_HEAD_KEYS, ATTENTION_HEAD_KEYS } from '../model-config.js';

type Config = Readonly<Record<string, unknown>>;

/** What one GPU of the server must hold, and how much KV cache the rest leaves. Bytes throughout. */
export interface MemoryEstimate {
  /** GPU memory × utilization: what the engine lets itself use. */
  budget: number;
  /** Weights on one GPU: the checkpoint divided by TP × PP. */
  weights: number;
  /** What the engine keeps out of the budget besides weights: activation peak and buffers (see RESERVE). */
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
  /** The GPU's memory as nvidia-smi reports it (memory.total), or free memory where that is what is known. */
  gpuBytes: number;
  /** --gpu-memory-utilization (vLLM) or --mem-fraction-static (SGLang). */
  utilization: number;
  tensorParallel: number;
  pipelineParallel: number;
  /** --kv-cache-dtype; 'auto' or null: the model's dtype. */
  kvCacheDtype: string | null;
  maxNumBatchedTokens: number | null;
  /** --max-num-seqs; null: the engine's default for this GPU. */
  maxNumSeqs?: number | null;
  /** How the engine sizes its pool; vLLM when the command does not say. */
  engine?: 'vllm' | 'sglang' | null;
}

const GiB = 1024 ** 3;
/**
 * What a file-level estimate cannot measure, stated. vLLM (v1/worker/gpu_worker.py,
 * determine_available_memory) gives the KV cache total × gpu_memory_utilization minus what its
 * profiling pass measured: the weights, the torch peak of one forward pass of max_num_batched_tokens
 * plus a sampler pass over max_num_seqs rows of fp32 logits, and memory allocated outside torch since
 * start-up (cuBLAS workspaces; NCCL and custom all-reduce buffers when TP > 1). CUDA graphs are captured
 * after the KV cache is allocated, so they come out of the (1 − utilization) headroom, not the budget.
 * Defaults are V1's for the OpenAI server: 8192 batched tokens and 1024 sequences on GPUs of 70 GiB or
 * more, 2048 and 256 below. The sampler's native top-k/top-p path (v1/sample/ops/topk_topp_sampler.py)
 * holds about six logits-sized buffers at its peak: the fp32 logits, their sorted copy and int64 sort
 * indices (three), the softmax and its cumulative sum, and the scattered result. Checked against the real
 * logs in test/check/memory-fit-real-logs.test.ts.
 */
export const RESERVE = {
  nonTorch: 0.25 * GiB,
  nonTorchParallel: 0.5 * GiB,
  logitsCopies: 6,
  largeGpu: 70 * GiB,
  batchedTokens: { large: 8192, small: 2048 },
  sequences: { large: 1024, small: 256 },
};

export function estimateMemory(inputs: MemoryInputs): MemoryEstimate {
  const ranks = inputs.tensorParallel * inputs.pipelineParallel;
  const budget = inputs.gpuBytes * inputs.utilization;
  const weights = inputs.weightBytes / ranks;
  const reserve = inputs.engine === 'sglang' ? 0 : vllmReserve(inputs);
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

/**
 * SGLang (model_runner.profile_max_num_token) keeps total × (1 − mem_fraction_static) free after the
 * weights and gives the rest to the KV pool: its activations and CUDA graphs live in that headroom, so
 * nothing is reserved inside the fraction. vLLM: see RESERVE.
 */
function vllmReserve(inputs: MemoryInputs): number {
  const large = inputs.gpuBytes >= RESERVE.largeGpu;
  const tokens = inputs.maxNumBatchedTokens ?? RESERVE.batchedTokens[large ? 'large' : 'small'];
  const sequences = Math.min(tokens, inputs.maxNumSeqs ?? RESERVE.sequences[large ? 'large' : 'small']);
  const nonTorch = inputs.tensorParallel > 1 ? RESERVE.nonTorchParallel : RESERVE.nonTorch;
  return nonTorch + activationPeak(findTextConfig(inputs.config), inputs.tensorParallel, tokens, sequences);
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

/**
 * The torch peak of the profiling pass: per batched token the residual and the attention projections
 * (hidden size), the MLP's gate-up output and its activation (3 × intermediate, or for a MoE the routed
 * tokens' 3 × moe_intermediate × experts per token), split over TP; then the sampler's fp32 logits,
 * one vocabulary row per sequence, LOGITS_COPIES deep.
 */
function activationPeak(text: Config, tensorParallel: number, tokens: number, sequences: number): number {
  const hidden = findNumber(text, ['hidden_size', 'n_embd', 'd_model'])?.value ?? 0;
  const experts = findNumber(text, ['num_experts_per_tok', 'moe_topk', 'num_selected_experts'])?.value;
  const moe = findNumber(text, ['moe_intermediate_size'])?.value;
  const dense = findNumber(text, ['intermediate_size', 'ffn_hidden_size', 'n_inner'])?.value ?? 4 * hidden;
  const mlp = experts === undefined ? 3 * dense : 3 * (moe ?? dense) * experts;
  const vocab = findNumber(text, ['vocab_size'])?.value ?? 0;
  const perToken = ((4 * hidden + mlp) * 2) / tensorParallel;
  return tokens * perToken + sequences * vocab * 4 * RESERVE.logitsCopies;
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
