import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'hf-download-rate-limited',
  title: 'Hugging Face Hub rate limit hit (HTTP 429)',
  category: 'auth-or-download',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy', 'trtllm'],
  keywords: ['429 client error', 'too many requests', 'too many 429'],
  match: {
    message:
      /429 Client Error: Too Many Requests(?: for url: (?<url>\S+))?|too many 429 error responses|We had to rate limit you/,
  },
  explanation:
    'The Hugging Face Hub answered HTTP 429: this IP or token made too many requests in a short time, so the ' +
    'server could not fetch the model files or config. Many replicas or workers starting at once and each ' +
    'resolving the model online, or anonymous access from a shared NAT address, hit this quickly.',
  fix: 'Authenticate (`HF_TOKEN=<token>`, higher limits than anonymous), download the model once (`huggingface-cli download <repo>`) into a shared cache or volume, and start the replicas with HF_HUB_OFFLINE=1 or a local model path.',
  action: [
    { kind: 'step', text: 'Authenticate (higher limits than anonymous):' },
    { kind: 'environment-variable', name: 'HF_TOKEN', value: 'hf_...' },
    {
      kind: 'step',
      text: 'download the model once (huggingface-cli download REPO) into a shared cache or volume, and start the replicas from it:',
    },
    { kind: 'environment-variable', name: 'HF_HUB_OFFLINE', value: '1' },
  ],
  alternative:
    'Wait for the limit to reset and stagger replica start-ups; a private mirror via HF_ENDPOINT avoids the public limit.',
  references: [
    'https://github.com/huggingface/huggingface_hub/blob/main/src/huggingface_hub/utils/_http.py',
    'https://huggingface.co/docs/hub/rate-limits',
  ],
});
