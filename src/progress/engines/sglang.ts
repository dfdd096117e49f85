import { defineEngineProgress } from '../define-engine-progress.js';

// Messages as SGLang logs them (python/sglang/srt/model_executor/model_runner.py, cuda_graph_runner.py,
// entrypoints/http_server.py).
export default defineEngineProgress({
  engine: 'sglang',
  command: /sglang/,
  detect: [
    /server_args=ServerArgs\(/,
    /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?: DP\d+)? TP\d+\] /,
    /The server is fired up and ready to roll!/,
  ],
  phases: [
    { id: 'arguments', label: 'arguments', lines: [/server_args=ServerArgs\(/] },
    { id: 'distributed', label: 'torch distributed', lines: [/Init torch distributed begin\./] },
    {
      id: 'loading-weights',
      label: 'loading weights',
      lines: [
        /Load weight begin\./,
        /Loading safetensors checkpoint shards:\s+\d+% Completed \| (?<shard>\d+)\/(?<shards>\d+)/,
      ],
    },
    {
      id: 'weights-loaded',
      label: 'weights loaded',
      lines: [/Load weight end\. .*mem usage=(?<weightsGiB>\d+(?:\.\d+)?) GB/],
    },
    {
      id: 'kv-cache',
      label: 'KV cache',
      lines: [/KV Cache is allocated\. #tokens: (?<kvCacheTokens>\d+)/, /Memory pool end\./],
    },
    {
      id: 'cuda-graphs',
      label: 'CUDA graph capture',
      lines: [
        /Capture cuda graph begin\./,
        /Capture cuda graph end\. Time elapsed: (?<graphSeconds>\d+(?:\.\d+)?) s/,
      ],
    },
    {
      id: 'api-server',
      label: 'API server up',
      lines: [/Uvicorn running on /, /Started server process \[\d+\]/, /Application startup complete\./],
    },
  ],
  facts: [],
  ready: [/The server is fired up and ready to roll!/],
  // python/sglang/srt/managers/scheduler.py and entrypoints/engine.py (a child's SIGQUIT to the parent).
  death: [
    /Scheduler hit an exception/,
    /Received sigquit from a child process/,
    /It usually means one child failed/,
  ],
  stallMs: { 'loading-weights': 30 * 60_000, 'cuda-graphs': 20 * 60_000 },
  modelList: '/v1/models',
});
