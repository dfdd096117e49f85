import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'ollama-pull-failed',
  title: 'Ollama could not fetch the model manifest',
  category: 'auth-or-download',
  engines: ['ollama'],
  keywords: ['pull model manifest'],
  match: {
    message: /pull model manifest: (?!412)(?<detail>[^\n]+)/,
  },
  explanation:
    'Before downloading layers, Ollama asks the registry for the model manifest, and that request failed: {detail}. ' +
    '"file does not exist" means the registry has no model or tag by that name; a dial, lookup, TLS or timeout error ' +
    'means the registry could not be reached from this machine.',
  fix:
    'Check the name and tag on ollama.com/library (e.g. `ollama pull llama3.1:8b`); for network errors make sure ' +
    'registry.ollama.ai resolves and is reachable, and set HTTPS_PROXY in the environment of the Ollama server (the ' +
    'systemd service, not your shell).',
  alternative:
    'On an offline host, copy ~/.ollama/models from a machine that has the model, or create it from a local GGUF with ' +
    'a Modelfile (`FROM ./model.gguf`, then `ollama create`).',
  references: ['https://github.com/intel/ipex-llm/issues/11911'],
});
