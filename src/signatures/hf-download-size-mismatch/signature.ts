import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'hf-download-size-mismatch',
  title: 'a downloaded model file is shorter or longer than the Hub says',
  category: 'auth-or-download',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy', 'trtllm'],
  keywords: ['consistency check failed'],
  match: {
    message:
      /Consistency check failed: file should be of size (?<expected>\d+) but has size (?<actual>\d+)(?: \((?<file>[^)\n]+)\))?/,
  },
  explanation:
    'huggingface_hub finished downloading a file but got {actual} bytes instead of the {expected} the Hub ' +
    'announced, so it refused to use the file. The transfer was cut short or altered on the way: a flaky ' +
    'connection, a proxy or mirror that truncates large files, or a full disk.',
  fix: 'Download again with a forced re-fetch, e.g. `huggingface-cli download <repo> --force-download` (or delete the partial file under ~/.cache/huggingface/hub), then start the server from the complete cache.',
  alternative:
    'If it keeps failing behind a proxy or mirror (HF_ENDPOINT), download on another network and copy the model ' +
    'directory over; check free disk space with `df -h` on the cache volume.',
  references: [
    'https://github.com/huggingface/huggingface_hub/blob/main/src/huggingface_hub/file_download.py',
    'https://github.com/huggingface/huggingface_hub/issues/1498',
  ],
});
