import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'llamacpp-unknown-pre-tokenizer',
  title: "GGUF's pre-tokenizer unknown to this llama.cpp / Ollama",
  category: 'model-unsupported-arch',
  engines: ['llamacpp', 'ollama'],
  keywords: ['unknown pre-tokenizer type'],
  match: {
    message: /unknown pre-tokenizer type: '(?<pre>[^'\n]+)'/,
  },
  explanation:
    'The GGUF file names its pre-tokenizer in tokenizer.ggml.pre ({pre}), and the llama.cpp build that loads it (on its ' +
    'own or inside Ollama) has no rule for that name, so it stops while loading the vocabulary. The file was converted ' +
    'by a newer convert_hf_to_gguf.py for a model whose tokenizer support arrived after this build.',
  fix: 'Upgrade llama.cpp (or Ollama, or the app that bundles it) to a release that knows the {pre} pre-tokenizer, then load the same file.',
  action: [
    { kind: 'install', requirements: [], engine: true, options: ['--upgrade'] },
    { kind: 'step', text: 'to a release that knows the {pre} pre-tokenizer, then load the same file' },
  ],
  alternative:
    'Use a GGUF of the model converted for your build, or serve the original safetensors checkpoint with vLLM or SGLang ' +
    'until your llama.cpp catches up. Editing tokenizer.ggml.pre to another name loads the file but tokenizes wrongly.',
  references: [
    'https://github.com/ggml-org/llama.cpp/blob/master/src/llama-vocab.cpp',
    'https://github.com/ggml-org/llama.cpp/blob/master/convert_hf_to_gguf_update.py',
  ],
});
