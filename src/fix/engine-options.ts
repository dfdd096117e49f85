import type { Engine } from '../types/diagnosis.js';
import type { EngineOption } from './fix-action.js';

/** How an engine takes an option: a flag of its server command, or an environment variable (Ollama). */
export type EngineSetting = { flag: string } | { env: string } | null;

/**
 * Each engine's own name for an option, from its server's --help (vllm serve, sglang.launch_server,
 * text-generation-launcher, trtllm-serve, llama-server, ollama serve's environment, lmdeploy serve
 * api_server). null: the engine has no such option, and the fix says so rather than print another engine's.
 */
export const ENGINE_SETTINGS: Record<Engine, Record<EngineOption, EngineSetting>> = {
  vllm: {
    'max-model-len': { flag: '--max-model-len' },
    'gpu-memory-utilization': { flag: '--gpu-memory-utilization' },
    'tensor-parallel-size': { flag: '--tensor-parallel-size' },
    port: { flag: '--port' },
    'enforce-eager': { flag: '--enforce-eager' },
    'max-num-seqs': { flag: '--max-num-seqs' },
    'max-num-batched-tokens': { flag: '--max-num-batched-tokens' },
    'pipeline-parallel-size': { flag: '--pipeline-parallel-size' },
    dtype: { flag: '--dtype' },
    'trust-remote-code': { flag: '--trust-remote-code' },
    'gpu-layers': null,
    'disable-custom-all-reduce': { flag: '--disable-custom-all-reduce' },
  },
  sglang: {
    'max-model-len': { flag: '--context-length' },
    'gpu-memory-utilization': { flag: '--mem-fraction-static' },
    'tensor-parallel-size': { flag: '--tp-size' },
    port: { flag: '--port' },
    'enforce-eager': { flag: '--disable-cuda-graph' },
    'max-num-seqs': { flag: '--max-running-requests' },
    'max-num-batched-tokens': { flag: '--chunked-prefill-size' },
    'pipeline-parallel-size': { flag: '--pp-size' },
    dtype: { flag: '--dtype' },
    'trust-remote-code': { flag: '--trust-remote-code' },
    'gpu-layers': null,
    'disable-custom-all-reduce': { flag: '--disable-custom-all-reduce' },
  },
  tgi: {
    'max-model-len': { flag: '--max-total-tokens' },
    'gpu-memory-utilization': { flag: '--cuda-memory-fraction' },
    'tensor-parallel-size': { flag: '--num-shard' },
    port: { flag: '--port' },
    'enforce-eager': { flag: '--cuda-graphs=0' },
    'max-num-seqs': { flag: '--max-concurrent-requests' },
    'max-num-batched-tokens': { flag: '--max-batch-prefill-tokens' },
    'pipeline-parallel-size': null,
    dtype: { flag: '--dtype' },
    'trust-remote-code': { flag: '--trust-remote-code' },
    'gpu-layers': null,
    'disable-custom-all-reduce': null,
  },
  trtllm: {
    'max-model-len': { flag: '--max_seq_len' },
    'gpu-memory-utilization': { flag: '--kv_cache_free_gpu_memory_fraction' },
    'tensor-parallel-size': { flag: '--tp_size' },
    port: { flag: '--port' },
    'enforce-eager': null,
    'max-num-seqs': { flag: '--max_batch_size' },
    'max-num-batched-tokens': { flag: '--max_num_tokens' },
    'pipeline-parallel-size': { flag: '--pp_size' },
    dtype: null,
    'trust-remote-code': { flag: '--trust_remote_code' },
    'gpu-layers': null,
    'disable-custom-all-reduce': null,
  },
  llamacpp: {
    'max-model-len': { flag: '-c' },
    'gpu-memory-utilization': null,
    'tensor-parallel-size': null,
    port: { flag: '--port' },
    'enforce-eager': null,
    'max-num-seqs': { flag: '--parallel' },
    'max-num-batched-tokens': { flag: '--batch-size' },
    'pipeline-parallel-size': null,
    dtype: null,
    'trust-remote-code': null,
    'gpu-layers': { flag: '-ngl' },
    'disable-custom-all-reduce': null,
  },
  ollama: {
    'max-model-len': { env: 'OLLAMA_CONTEXT_LENGTH' },
    'gpu-memory-utilization': null,
    'tensor-parallel-size': null,
    port: { env: 'OLLAMA_HOST' },
    'enforce-eager': null,
    'max-num-seqs': { env: 'OLLAMA_NUM_PARALLEL' },
    'max-num-batched-tokens': null,
    'pipeline-parallel-size': null,
    dtype: null,
    'trust-remote-code': null,
    'gpu-layers': null,
    'disable-custom-all-reduce': null,
  },
  lmdeploy: {
    'max-model-len': { flag: '--session-len' },
    'gpu-memory-utilization': { flag: '--cache-max-entry-count' },
    'tensor-parallel-size': { flag: '--tp' },
    port: { flag: '--server-port' },
    'enforce-eager': { flag: '--eager-mode' },
    'max-num-seqs': { flag: '--max-batch-size' },
    'max-num-batched-tokens': { flag: '--max-prefill-token-num' },
    'pipeline-parallel-size': null,
    dtype: { flag: '--dtype' },
    'trust-remote-code': null,
    'gpu-layers': null,
    'disable-custom-all-reduce': null,
  },
};

/** The option as the engine takes it, with its value: `--max-model-len 50784`, `OLLAMA_CONTEXT_LENGTH=8192`. */
export function describeSetting(setting: NonNullable<EngineSetting>, value: string | undefined): string[] {
  if ('env' in setting) return [`${setting.env}=${value ?? '1'}`];
  if (value === undefined || setting.flag.includes('=')) return [setting.flag];
  return [setting.flag, value];
}
