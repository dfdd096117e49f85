import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'gguf-tensor-count-engine-too-old',
  title: 'the GGUF has {got} tensors where this llama.cpp expects {want}: the engine is older than the model',
  category: 'model-unsupported-arch',
  engines: ['llamacpp', 'ollama'],
  keywords: ['wrong number of tensors'],
  match: {
    message: /wrong number of tensors; expected (?<want>\d+), got (?<got>\d+)/,
  },
  explanation:
    'The file was read to its end, but its tensor count differs from what this build of llama.cpp expects for the ' +
    "model's architecture. A variant of a known architecture released after this build (new or tied tensors, as with " +
    'Llama 3.2) loads this way: the converter that wrote the GGUF knew a layout the loader does not. A partial download ' +
    'fails earlier, with "data is not within the file bounds".',
  fix: 'Upgrade llama.cpp / Ollama to a release that lists support for this model, and make sure the upgraded binary is the one running (`ollama --version`, `which ollama`).',
  action: [
    { kind: 'install', requirements: [], engine: true, options: ['--upgrade'] },
    {
      kind: 'step',
      text: 'to a release that lists support for this model, and make sure the upgraded binary is the one running (ollama --version, which ollama)',
    },
  ],
  alternative: 'Or use a GGUF converted by a llama.cpp as old as the one you run.',
  references: [
    'https://github.com/ollama/ollama/issues/6998',
    'https://github.com/ollama/ollama/issues/7176',
  ],
});
