import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'ollama-model-needs-newer-ollama',
  title: 'the model needs a newer Ollama',
  category: 'model-unsupported-arch',
  engines: ['ollama'],
  keywords: [
    'requires a newer version of ollama',
    'pull model manifest: 412',
    'unsupported model architecture',
  ],
  match: {
    // The registry answers a pull with HTTP 412; Ollama's own engine names the architecture it lacks.
    message:
      /requires a newer version of Ollama|pull model manifest: 412\b|unsupported model architecture \\?"(?<arch>[^"\\\n]+)/,
  },
  explanation:
    'The model was published for a newer Ollama than the one running: either the registry refused the pull (HTTP 412, ' +
    'the manifest declares a minimum Ollama version) or the local engine has no implementation for the model ' +
    'architecture. Nothing is wrong with the GPU, the download or the model itself.',
  fix: 'Upgrade Ollama (`curl -fsSL https://ollama.com/install.sh | sh`, or pull the newer `ollama/ollama` image), restart it, and pull the model again.',
  action: [
    { kind: 'install', requirements: [], engine: true, options: ['--upgrade'] },
    {
      kind: 'step',
      text: '(install.sh, or the newer ollama/ollama image), restart it, and pull the model again',
    },
  ],
  alternative:
    'Check `ollama -v` on the server (the client and the server can differ), or pick an older tag of the model that ' +
    'your Ollama supports.',
  references: [
    'https://github.com/ollama/ollama/blob/main/model/model.go',
    'https://github.com/ollama/ollama/blob/main/server/images.go',
  ],
});
