import { defineGrammar } from '../define-grammar.js';

/**
 * Triton Inference Server (TensorRT-LLM's tensorrtllm backend, and any model it serves): once its models
 * are loaded it prints a table of their states, and a model that failed to load is a row whose status
 * says why (`| tensorrt_llm | 1 | UNAVAILABLE: Internal: ... |`). The table wraps a long status at its
 * width, mid-word, onto rows whose first two cells are empty. With exit-on-error (the default) the server
 * then ends with `error: creating server: Internal - failed to load all models`, which only points at it.
 */
export default defineGrammar({
  runtime: 'triton',
  lines: [
    {
      id: 'triton-model-unavailable',
      rank: 214,
      pattern: /^\|\s*[^|\s][^|]*\|\s*\d+\s*\|\s*(UNAVAILABLE: .*?)\s*\|\s*$/,
      fatal: true,
      strength: 34,
      message: (m) => m[1] ?? '',
      continuation: /^\|\s+\|\s+\|\s*(.*?)\s*\|\s*$/,
    },
    // Its model repository's own line for a model that did not load, before the table (glog's `E0102 ...
    // model_lifecycle.cc:...] failed to load 'tensorrt_llm' version 2: Invalid argument: unable to find ...`).
    {
      id: 'triton-model-load-failed',
      rank: 211,
      pattern: /\bfailed to load '[^']+' version \d+: (.+)/,
      fatal: true,
      strength: 34,
    },
    {
      id: 'triton-create-server-failed',
      rank: 213,
      pattern: /^error: creating server: \w+ - .+/,
      fatal: true,
      strength: 20,
    },
  ],
});
