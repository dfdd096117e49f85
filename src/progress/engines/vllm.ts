import { defineEngineProgress } from '../define-engine-progress.js';

// Messages as vLLM logs them (vllm/entrypoints/openai/api_server.py, vllm/v1/worker/gpu_model_runner.py,
// gpu_worker.py, kv_cache_utils.py, model_executor/model_loader/*); V0 wordings kept where they differ.
export default defineEngineProgress({
  engine: 'vllm',
  command: /(?:^|[\s/])vllm(?:\s|$)|vllm\.entrypoints/,
  detect: [
    /vLLM API server version /,
    /Initializing a V[01] LLM engine|Initializing an LLM engine \(v/,
    /\((?:EngineCore(?:_DP\d+|_\d+)?|VllmWorker rank=\d+|Worker_TP\d+|APIServer) pid=\d+\)/,
    /Starting vLLM API server/,
    // The logger header names the module: these are vLLM's own.
    /^(?:INFO|WARNING|ERROR) \d\d-\d\d \d\d:\d\d:\d\d \[(?:launcher|api_server|serving_chat|gpu_model_runner)\.py:\d+\] /,
  ],
  phases: [
    {
      id: 'arguments',
      label: 'arguments',
      lines: [/vLLM API server version /, /non-default args: \{/, /args: Namespace\(/],
    },
    {
      id: 'model-config',
      label: 'model config',
      lines: [
        /Resolved architecture: /,
        /This model supports multiple tasks: /,
        /Initializing a V[01] LLM engine|Initializing an LLM engine \(v/,
      ],
    },
    {
      id: 'loading-weights',
      label: 'loading weights',
      lines: [
        /Starting to load model /,
        /Loading safetensors checkpoint shards:\s+\d+% Completed \| (?<shard>\d+)\/(?<shards>\d+)/,
        /Loading (?:pt|safetensors|gguf) checkpoint shards:/,
      ],
    },
    {
      id: 'weights-loaded',
      label: 'weights loaded',
      lines: [
        /Loading weights took (?<weightsSeconds>\d+(?:\.\d+)?) seconds/,
        /Model loading took (?<weightsGiB>\d+(?:\.\d+)?) GiB/,
        /Loading model weights took (?<weightsGiB>\d+(?:\.\d+)?) GB/,
      ],
    },
    {
      id: 'memory-profiling',
      label: 'memory profiling',
      lines: [/Dynamo bytecode transform time: /, /torch\.compile takes /, /Memory profiling takes /],
    },
    {
      id: 'kv-cache',
      label: 'KV cache',
      lines: [
        /Available KV cache memory: (?<kvCacheGiB>-?\d+(?:\.\d+)?) GiB/,
        /GPU KV cache size: (?<kvCacheTokens>[\d,]+) tokens/,
        /# (?:GPU|cuda) blocks: (?<gpuBlocks>\d+)/,
      ],
    },
    {
      id: 'cuda-graphs',
      label: 'CUDA graph capture',
      lines: [
        /Capturing CUDA graph shapes/,
        /Capturing CUDA graphs \(/,
        /Capturing cudagraphs for decoding/,
        /Capturing the model for CUDA graphs/,
        /Graph capturing finished in (?<graphSeconds>\d+) secs/,
      ],
    },
    {
      id: 'api-server',
      label: 'API server up',
      lines: [/Starting vLLM API server/, /Available routes are:/, /Started server process \[\d+\]/],
    },
  ],
  facts: [
    /Model loading took (?<weightsGiB>\d+(?:\.\d+)?) GiB(?: memory)? and (?<weightsSeconds>\d+(?:\.\d+)?) seconds/,
    /Available KV cache memory: (?<kvCacheGiB>-?\d+(?:\.\d+)?) GiB/,
    /GPU KV cache size: (?<kvCacheTokens>[\d,]+) tokens/,
    /Graph capturing finished in (?<graphSeconds>\d+) secs/,
  ],
  ready: [/Application startup complete\./],
  // vllm/v1/engine/core.py, core_client.py, executor/multiproc_executor.py, exceptions.py.
  death: [
    /EngineCore encountered a fatal error/,
    /\bEngineDeadError\b/,
    /Engine core proc \S+ died unexpectedly/,
    /Worker proc \S+ died unexpectedly/,
  ],
  // A weight load without shard lines (one big file, a slow disk) or torch.compile may go long in silence.
  stallMs: {
    'loading-weights': 30 * 60_000,
    'memory-profiling': 20 * 60_000,
    'cuda-graphs': 20 * 60_000,
  },
  modelList: '/v1/models',
});
