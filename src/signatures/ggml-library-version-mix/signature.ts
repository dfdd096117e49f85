import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'ggml-library-version-mix',
  title: 'llama.cpp binary loaded ggml/llama libraries from another build',
  category: 'abi-or-symbol',
  engines: ['llamacpp', 'ollama'],
  keywords: [
    'undefined symbol: ggml_',
    'undefined symbol: gguf_',
    'undefined symbol: llama_',
    'undefined symbol: mtmd_',
  ],
  match: {
    // Plain C names exported by libggml*, libllama and libmtmd; the binary and the library it found disagree.
    message: /undefined symbol: (?<symbol>(?:ggml|gguf|llama|mtmd)_\w+)/,
  },
  explanation:
    'The program (llama-server, llama-cli or the Ollama runner) asks for {symbol}, but the shared library the ' +
    'dynamic loader picked up does not export it: the binary and libggml / libllama come from different builds. ' +
    "Typically an upgrade left the previous release's libraries in place (Ollama's /usr/local/lib/ollama or " +
    "/usr/lib/ollama, an old llama.cpp under /usr/local/lib), or another project's copy of ggml (whisper.cpp, " +
    'llama-cpp-python) comes first on the library path.',
  fix:
    'Find the stale copy with `ldd $(which llama-server) | grep -E "ggml|llama"` and remove it; for Ollama on Linux, ' +
    'delete the whole library folder (`sudo rm -rf /usr/local/lib/ollama` or /usr/lib/ollama) and run the install ' +
    'script again.',
  alternative:
    'When building llama.cpp yourself, install binary and libraries together from one build directory, or build ' +
    'with -DBUILD_SHARED_LIBS=OFF so the binary carries its own ggml.',
  references: [
    'https://github.com/ggml-org/llama.cpp/issues/8695',
    'https://github.com/ollama/ollama/blob/main/docs/linux.md',
  ],
});
