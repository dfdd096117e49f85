import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'gguf-corrupt-or-incomplete',
  title: 'GGUF file is truncated or does not match the loader',
  category: 'model-load-weights',
  engines: ['llamacpp', 'ollama'],
  keywords: ['not within the file bounds', 'has wrong shape', 'failed to read magic', 'invalid magic'],
  match: {
    message:
      /data is not within the file bounds|model is corrupted or incomplete|tensor '[^'\n]+' has wrong shape|failed to read magic|invalid magic (?:characters|number)/,
  },
  explanation:
    'llama.cpp opened the GGUF file but its tensors do not add up: a tensor points past the end of the file, the file ' +
    'is not GGUF at all, or a tensor shape differs from what this build expects for the architecture. A partial ' +
    'download or copy gives the first two; a model converted with a newer llama.cpp than the one loading it gives the ' +
    'last (a wrong tensor count: gguf-tensor-count-engine-too-old).',
  fix:
    'Re-download the file and compare its size and sha256 with the source (`ollama rm <model> && ollama pull <model>` ' +
    'for Ollama).',
  alternative:
    'If the file is intact, upgrade llama.cpp / Ollama to a release that supports this model, or use a GGUF converted ' +
    'for the version you run.',
  references: [
    'https://github.com/ggml-org/llama.cpp/pull/6885',
    'https://github.com/ollama/ollama/issues/7176',
    'https://github.com/ollama/ollama/issues/9529',
  ],
});
