import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'ggml-assert-failed',
  title: 'llama.cpp aborted on a GGML_ASSERT',
  // Its checks guard every kind of fault (a model's shape, a batch, a backend's bug): no one kind.
  category: 'other',
  engines: ['llamacpp', 'ollama'],
  keywords: ['ggml_assert('],
  match: {
    // ggml_abort prints "<file>:<line>: GGML_ASSERT(<condition>) failed". A failed host allocation
    // (ctx->mem_buffer != NULL) is memory, not the model.
    message: /(?<site>[\w.-]+:\d+): GGML_ASSERT\((?!ctx->mem_buffer)(?<cond>[^\n]{1,240}?)\) failed/,
  },
  explanation:
    'A consistency check inside ggml failed at {site} ({cond}) and llama.cpp aborted the process. At start-up or on the ' +
    'first request this nearly always means the model (or its vision projector, or a quantization type) uses a shape ' +
    'or operation this llama.cpp build does not implement for the chosen backend, typically a model newer than the ' +
    'build; a wrong context or batch setting can trip some checks too.',
  fix: 'Upgrade llama.cpp (or Ollama) to the latest release and load the model again; search its issues for "GGML_ASSERT({cond})".',
  action: [
    { kind: 'install', requirements: [], engine: true, options: ['--upgrade'] },
    { kind: 'step', text: 'then load the model again; search its issues for "GGML_ASSERT({cond})"' },
  ],
  alternative:
    'If it persists on the latest build, try a different quantization of the model, run on CPU (`--n-gpu-layers 0`) to ' +
    'see whether the GPU backend is at fault, and report it with the full log.',
  references: [
    'https://github.com/ggml-org/llama.cpp/blob/master/ggml/include/ggml.h',
    'https://github.com/ggml-org/llama.cpp/blob/master/ggml/src/ggml.c',
  ],
  // Many different checks share the macro: any signature that knows the specific condition wins.
  weight: 0.3,
});
