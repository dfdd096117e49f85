import { defineSignature } from '../define-signature.js';

// The runner's death seen from the server: it says a model died, not why. It weighs less than a cause, so
// the runner's own last words (an assertion, a CUDA error) win wherever the log holds them.
export default defineSignature({
  id: 'ollama-runner-died-mid-request',
  title: "the model's runner died in the middle of a completion",
  category: 'other',
  engines: ['ollama'],
  keywords: ['post predict'],
  match: {
    exception: null,
    message: /msg="post predict" error="Post \\"[^"\\]*\/completion\\": EOF"/,
  },
  explanation:
    'Ollama runs each model in a runner process and forwards every completion to it; the request ended in EOF, so ' +
    'the runner went away while it answered: it crashed (a native error, the GPU out of memory) or was killed. The ' +
    'server itself lived on and went on answering, which is why the log looks healthy after it.',
  fix: "Read the runner's own output just before this line (`journalctl -u ollama`, or the server log with OLLAMA_DEBUG=1); if it printed nothing, the kernel log says whether the OOM killer ended it.",
  action: [
    {
      kind: 'step',
      text: "Read the runner's own output just before this line (journalctl -u ollama, or the server log with OLLAMA_DEBUG=1); if it printed nothing, check the kernel log for the OOM killer:",
    },
    { kind: 'inspect-exit', look: ['oom-killer'] },
  ],
  references: ['https://github.com/ollama/ollama/blob/main/docs/troubleshooting.md'],
  weight: 0.3,
});
