import { defineEngineProgress } from '../define-engine-progress.js';

// Messages as llama.cpp's llama-server logs them (tools/server/server.cpp, src/llama-model-loader.cpp,
// src/llama-model.cpp, src/llama-kv-cache*.cpp); older builds say llm_load_tensors and llama_kv_cache_init.
export default defineEngineProgress({
  engine: 'llamacpp',
  command: /llama-server|llama\.cpp|(?:^|\/)server(?:\s|$).*\.gguf/,
  detect: [
    /^build: \d+ \(\w+\) with /,
    /llama_model_loader: /,
    /^srv\s+\w+: /,
    /main: server is listening on /,
    /ggml_cuda_init: /,
  ],
  phases: [
    { id: 'arguments', label: 'arguments', lines: [/^build: \d+ \(/, /^system info: n_threads = /] },
    {
      id: 'loading-weights',
      label: 'loading weights',
      lines: [
        /main: loading model/,
        /load_model: loading model '/,
        /llama_model_loader: loaded meta data with /,
        /(?:llm_)?load_tensors: offloaded (?<layersOffloaded>\d+)\/(?<layers>\d+) layers to GPU/,
      ],
    },
    {
      id: 'kv-cache',
      label: 'KV cache',
      lines: [
        /llama_(?:new_context_with_model|context): n_ctx\s+= /,
        /llama_kv_cache[\w]*:\s+\S+ KV buffer size = /,
      ],
    },
    {
      id: 'warmup',
      label: 'warming up',
      lines: [/warming up the model with an empty run/, /srv\s+init: initializing slots/],
    },
    { id: 'model-loaded', label: 'model loaded', lines: [/main: model loaded/] },
  ],
  facts: [],
  ready: [/main: server is listening on /, /HTTP server listening/],
  modelList: '/v1/models',
});
