import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'ollama-insufficient-system-memory',
  title: 'Ollama refused to load a model larger than the free memory',
  category: 'oom-gpu',
  engines: ['ollama'],
  keywords: ['requires more system memory'],
  match: {
    message:
      /model requires more system memory \((?<need>[\d.]+ ?[KMGT]i?B)\) than is available \((?<have>[\d.]+ ?[KMGT]i?B)\)/,
  },
  explanation:
    'Before starting the runner Ollama estimates what the model needs (weights plus the KV cache for num_ctx times ' +
    'OLLAMA_NUM_PARALLEL) beyond what fits in VRAM, and that part must fit in free system RAM. Here it needs {need} ' +
    'and only {have} is free, so the load is refused; no GPU was found or too few layers fit on it, or other models ' +
    'are still loaded.',
  fix: 'Use a smaller model or quantization (e.g. the :q4_K_M tag), or lower the context (`/set parameter num_ctx 4096`, `OLLAMA_CONTEXT_LENGTH=4096`) and `OLLAMA_NUM_PARALLEL=1`.',
  action: [
    {
      kind: 'step',
      text: 'Use a smaller model or quantization (e.g. the :q4_K_M tag), or lower the context and the parallel slots:',
    },
    { kind: 'engine-option', option: 'max-model-len', value: '4096' },
    { kind: 'engine-option', option: 'max-num-seqs', value: '1' },
  ],
  alternative:
    'Free memory first: `ollama ps` then `ollama stop <model>` for models still resident, close other programs, or add ' +
    'swap. If a GPU should have taken the layers, check the server log for why none was detected.',
  references: [
    'https://github.com/ollama/ollama/blob/main/llm/server.go',
    'https://github.com/ollama/ollama/blob/main/docs/faq.md',
  ],
});
