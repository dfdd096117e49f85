import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'hf-hub-offline',
  title: 'Hugging Face Hub unreachable and model not in the local cache',
  category: 'auth-or-download',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy', 'trtllm'],
  keywords: [
    "couldn't connect to",
    'outgoing traffic has been disabled',
    'localentrynotfounderror',
    'local cache',
    'huggingface.co',
    'offline mode is enabled',
  ],
  match: {
    message:
      /We couldn't connect to 'https:\/\/huggingface\.co'|outgoing traffic has been disabled|LocalEntryNotFoundError|OfflineModeIsEnabled|offline mode is enabled|cannot find the requested files in the (?:local|disk) cache|HTTPSConnectionPool\(host='huggingface\.co'[^\n]*Max retries exceeded/,
  },
  explanation:
    'The server tried to fetch the model files (or just config.json) from the Hugging Face Hub and could not reach it: ' +
    'no network or DNS in the container, a proxy or firewall in the way, or offline mode (HF_HUB_OFFLINE=1) is on. ' +
    'The files were not in the local cache either, so there was nothing to fall back to.',
  fix:
    'Download the model where the Hub is reachable (`huggingface-cli download <repo>`), mount that cache or directory into ' +
    'the server (e.g. `-v ~/.cache/huggingface:/root/.cache/huggingface`) and start with HF_HUB_OFFLINE=1, or pass the ' +
    'local directory as the model path.',
  action: [
    {
      kind: 'step',
      text: 'Download the model where the Hub is reachable (huggingface-cli download REPO), mount that cache or directory into the server (or pass the local directory as the model path), and start it offline:',
    },
    { kind: 'environment-variable', name: 'HF_HUB_OFFLINE', value: '1' },
  ],
  alternative:
    'If the host should have access, set HTTPS_PROXY for the container or use a mirror via HF_ENDPOINT, and check that ' +
    'the cache path (HF_HOME) is the one the files were downloaded to.',
  references: [
    'https://github.com/KyanChen/RSPrompter/issues/78',
    'https://github.com/yuruotong1/autoMate/issues/104',
  ],
});
