import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'gguf-missing-tensor-or-key',
  title: 'GGUF lacks a tensor or metadata key this llama.cpp expects',
  category: 'model-unsupported-arch',
  engines: ['llamacpp', 'ollama'],
  keywords: ['missing tensor', 'key not found in model'],
  match: {
    message: /(?:missing tensor '|key not found in model: )(?<name>[\w.-]+)/,
  },
  explanation:
    "llama.cpp knows the file's architecture but builds it from a fixed list of tensors and hyperparameters, and one it " +
    'requires is not in the file ({name}). The GGUF was written by a converter for a different revision of that ' +
    'architecture (a new model variant, a vision or MTP part split off, renamed keys), usually newer or older than the ' +
    'llama.cpp that loads it; a broken conversion gives the same message.',
  fix: 'Upgrade llama.cpp (or Ollama) to the release the GGUF was made for, then load the same file again.',
  action: [
    { kind: 'install', requirements: [], engine: true, options: ['--upgrade'] },
    { kind: 'step', text: 'to the release the GGUF was made for, then load the same file again' },
  ],
  alternative:
    'Or download a GGUF converted with your llama.cpp version (re-run convert_hf_to_gguf.py from the same checkout), or ' +
    'serve the original checkpoint with another engine until support lands.',
  references: [
    'https://github.com/ggml-org/llama.cpp/blob/master/src/llama-model-loader.cpp',
    'https://github.com/ggml-org/llama.cpp/blob/master/src/llama-model.cpp',
  ],
});
