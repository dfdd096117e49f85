import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'hf-hub-unauthorized',
  title: 'Hugging Face Hub refused the download (401 Unauthorized)',
  category: 'auth-or-download',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy', 'trtllm'],
  keywords: ['401 client error'],
  match: {
    // The bare HTTP error under huggingface_hub's own one; when the Hub's explanation (GatedRepoError,
    // RepositoryNotFoundError) is in the log too, its signature wins.
    message: /401 Client Error: Unauthorized for url: https?:\/\/(?:huggingface\.co|hf-mirror\.com)\//,
  },
  explanation:
    'The Hugging Face Hub answered 401 Unauthorized: the request carried no token, or one the Hub did not accept, ' +
    'for a repository that needs one. The model is gated (its license must be accepted first) or private, or the ' +
    'token is invalid or expired; a misspelled model id gets the same answer.',
  fix:
    'Check the model id on huggingface.co, accept the license there if the repo is gated, and pass a read token to ' +
    'the server: `-e HF_TOKEN=hf_...` for a container (or `huggingface-cli login`); `huggingface-cli whoami` shows ' +
    'whether the token is accepted.',
  action: [
    {
      kind: 'step',
      text: 'Check the model id on huggingface.co, accept the license there if the repo is gated, and pass a read token (huggingface-cli whoami shows whether it is accepted):',
    },
    { kind: 'environment-variable', name: 'HF_TOKEN', value: 'hf_...' },
  ],
  alternative:
    'Download the model once where you have access (`huggingface-cli download <repo> --local-dir /models/<name>`) ' +
    'and serve the local path.',
  references: [
    'https://huggingface.co/docs/hub/models-gated',
    'https://huggingface.co/docs/hub/security-tokens',
  ],
  weight: 0.5,
});
