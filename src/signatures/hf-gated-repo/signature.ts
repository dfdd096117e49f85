import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'hf-gated-repo',
  title: 'Gated Hugging Face repository: access not granted or no token',
  category: 'auth-or-download',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy', 'trtllm'],
  keywords: ['gated', 'is restricted', 'awaiting a review'],
  match: {
    message:
      /GatedRepoError|Cannot access gated repo|is gated\. You must be authenticated|trying to access a gated repo|Access to model \S+ is restricted|awaiting a review from the repo authors|access to public gated repositories/,
  },
  explanation:
    'The model repository is gated: its owner requires each account to accept the license before the files can be ' +
    'downloaded. The request was made without a token, with a token of an account that has not been granted access ' +
    '(or is still waiting for approval), or with a fine-grained token that may not read gated repos.',
  fix:
    'Accept the license on the model page with your account, then pass a read token to the server: ' +
    '`-e HF_TOKEN=hf_...` for the container (or `huggingface-cli login`).',
  action: [
    {
      kind: 'step',
      text: 'Accept the license on the model page with your account, then pass a read token to the server:',
    },
    { kind: 'environment-variable', name: 'HF_TOKEN', value: 'hf_...' },
  ],
  alternative:
    'For a fine-grained token, enable "Read access to contents of all public gated repos you can access"; or download ' +
    'the weights once where you have access and point the server at the local directory.',
  references: ['https://github.com/huggingface/optimum-neuron/issues/535'],
});
