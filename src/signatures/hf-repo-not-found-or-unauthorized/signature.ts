import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'hf-repo-not-found-or-unauthorized',
  title: 'Model repository not found, private, or token rejected',
  category: 'auth-or-download',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy', 'trtllm'],
  keywords: [
    'repository not found',
    'repositorynotfounderror',
    'not a valid model identifier',
    'invalid credentials',
    'invalid user token',
    'invalid username or password',
  ],
  match: {
    message:
      /RepositoryNotFoundError|Repository Not Found for url|is not a local folder and is not a valid model identifier|Invalid credentials in Authorization header|Invalid user token|Invalid username or password/,
  },
  explanation:
    'The Hugging Face Hub answered that the repository does not exist for this request. Either the model id is ' +
    'misspelled (organisation, name or case), it is a local path that does not exist (so it was taken as a Hub id), the ' +
    'repo is private and no token with access was sent, or the token itself is invalid or expired.',
  fix:
    'Check the id on huggingface.co (or that the local path exists), and for a private repo pass a valid read token, ' +
    'e.g. `-e HF_TOKEN=hf_...`; `huggingface-cli whoami` shows whether the token is accepted.',
  action: [
    {
      kind: 'step',
      text: 'Check the id on huggingface.co (or that the local path exists); for a private repo pass a valid read token (huggingface-cli whoami shows whether it is accepted):',
    },
    { kind: 'environment-variable', name: 'HF_TOKEN', value: 'hf_...' },
  ],
  alternative:
    'Download the model once with `huggingface-cli download <repo> --local-dir /models/<name>` and serve the local path.',
  references: ['https://github.com/openvla/openvla/issues/82'],
});
