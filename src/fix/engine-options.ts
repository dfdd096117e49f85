import type { Engine } from '../types/diagnosis.js';
import type { EngineOption } from './fix-action.js';

/** How an engine takes an option: a flag of its server command, or an environment variable (Ollama). */
export type EngineSetting = { flag: string } | { env: string } | null;

/**
 * Each engine's own name for an option, checked against the engine's source (the file above each block,
 * read 2026-12-04 at the commit named). null: the engine has no such option, and the fix says so rather
 * than print another engine's.
 */
export const ENGINE_SETTINGS: Record<Engine, Record<EngineOption, EngineSetting>> = {
  // vllm-project/vllm vllm/engine/arg_utils.py (EngineArgs.add_cli_args); --host and --port from
  // vllm/entrypoints/openai/cli_args.py.
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
    host: { flag: '--host' },
    quantization: { flag: '--quantization' },
    'max-lora-rank': { flag: '--max-lora-rank' },
    'distributed-executor-backend': { flag: '--distributed-executor-backend' },
  },
  // sgl-project/sglang python/sglang/srt/server_args.py (ServerArgs.add_cli_args), as its generated table
  // docs/advanced_features/server_arguments.md (004813e) lists them: --tp-size and --pp-size are the
  // aliases of --tensor-parallel-size and --pipeline-parallel-size.
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
    host: { flag: '--host' },
    quantization: { flag: '--quantization' },
    'max-lora-rank': { flag: '--max-lora-rank' },
    'distributed-executor-backend': null,
  },
  // huggingface/text-generation-inference launcher/src/main.rs (db931fc), clap's `long` of each Args field in
  // kebab case: hostname, quantize, max_total_tokens, cuda_memory_fraction, num_shard, cuda_graphs ("0" turns
  // them off), max_concurrent_requests, max_batch_prefill_tokens.
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
    host: { flag: '--hostname' },
    quantization: { flag: '--quantize' },
    'max-lora-rank': null,
    'distributed-executor-backend': null,
  },
  // NVIDIA/TensorRT-LLM tensorrt_llm/commands/serve.py (trtllm-serve's click options, 00209af): snake case;
  // --tp_size and --pp_size alias --tensor_parallel_size and --pipeline_parallel_size,
  // --kv_cache_free_gpu_memory_fraction aliases --free_gpu_memory_fraction.
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
    host: { flag: '--host' },
    quantization: null,
    'max-lora-rank': null,
    'distributed-executor-backend': null,
  },
  // ggml-org/llama.cpp common/arg.cpp (llama-server's common_arg table): -c/--ctx-size, -ngl/--gpu-layers,
  // -np/--parallel, -b/--batch-size.
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
    host: { flag: '--host' },
    quantization: null,
    'max-lora-rank': null,
    'distributed-executor-backend': null,
  },
  // ollama/ollama envconfig/config.go (fb30760): OLLAMA_CONTEXT_LENGTH, OLLAMA_NUM_PARALLEL, OLLAMA_HOST
  // (host:port).
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
    host: { env: 'OLLAMA_HOST' },
    quantization: null,
    'max-lora-rank': null,
    'distributed-executor-backend': null,
  },
  // InternLM/lmdeploy lmdeploy/cli/serve.py (api_server) with the flags of lmdeploy/cli/utils.py's
  // ArgumentHelper (1263d5c): --server-name, --server-port, --session-len, --cache-max-entry-count (the share
  // of free GPU memory the KV cache takes), --tp, --eager-mode, --max-batch-size, --max-prefill-token-num,
  // --dtype, --trust-remote-code, --distributed-executor-backend (the PyTorch engine's).
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
    'trust-remote-code': { flag: '--trust-remote-code' },
    'gpu-layers': null,
    'disable-custom-all-reduce': null,
    host: { flag: '--server-name' },
    quantization: null,
    'max-lora-rank': null,
    'distributed-executor-backend': { flag: '--distributed-executor-backend' },
  },
};

/** The option as the engine takes it, with its value: `--max-model-len 50784`, `OLLAMA_CONTEXT_LENGTH=8192`. */
export function describeSetting(setting: NonNullable<EngineSetting>, value: string | undefined): string[] {
  if ('env' in setting) return [`${setting.env}=${value ?? '1'}`];
  if (value === undefined || setting.flag.includes('=')) return [setting.flag];
  return [setting.flag, value];
}

/** What an option sets, in words: for a fix whose engine is not known, beside each engine's own name. */
export const OPTION_WORDS: Record<EngineOption, string> = {
  'max-model-len': 'the context length',
  'gpu-memory-utilization': 'the share of GPU memory it reserves',
  'tensor-parallel-size': 'the tensor-parallel size (GPUs per model)',
  port: 'the port',
  'enforce-eager': 'CUDA graphs off',
  'max-num-seqs': 'the number of requests run at once',
  'max-num-batched-tokens': 'the tokens per prefill batch',
  'pipeline-parallel-size': 'the pipeline-parallel size',
  dtype: 'the dtype',
  'trust-remote-code': 'trust in the model’s own code',
  'gpu-layers': 'the layers offloaded to the GPU',
  'disable-custom-all-reduce': 'the custom all-reduce off',
  host: 'the address it listens on',
  quantization: 'the quantization method',
  'max-lora-rank': 'the largest LoRA rank',
  'distributed-executor-backend': 'the distributed executor',
};
