import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'gguf-unknown-architecture',
  title: 'GGUF model architecture unknown to this llama.cpp / Ollama',
  category: 'model-unsupported-arch',
  engines: ['llamacpp', 'ollama'],
  keywords: ['unknown model architecture'],
  match: {
    message: /unknown model architecture: '(?<arch>[^'\n]+)'/,
  },
  explanation:
    'The GGUF file declares general.architecture = {arch}, and the llama.cpp build that loads it (on its own, or ' +
    'bundled inside Ollama) has no graph implementation for that architecture. The file is usually fine; it was ' +
    'converted with a newer llama.cpp, or for an architecture llama.cpp has not added yet.',
  fix: 'Upgrade to a llama.cpp build (or Ollama release) that supports {arch}, then load the same file again.',
  action: [
    { kind: 'install', requirements: [], engine: true, options: ['--upgrade'] },
    { kind: 'step', text: 'to a build that supports {arch}, then load the same file again' },
  ],
  alternative:
    'Until support lands, serve the original (safetensors) model with an engine that supports it, such as vLLM.',
  references: ['https://github.com/ollama/ollama/issues/12984'],
});
