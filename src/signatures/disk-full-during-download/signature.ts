import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'disk-full-during-download',
  title: 'the disk filled up while downloading the model',
  category: 'auth-or-download',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy', 'trtllm', 'ollama', 'llamacpp'],
  keywords: ['no space left on device', 'os error 28'],
  match: {
    message: /No space left on device(?![^\n]*\/dev\/shm)|\(os error 28\)/i,
    // The download's own frames or lines: huggingface_hub, hf_transfer, TGI's download step, an Ollama pull.
    context:
      /huggingface_hub|file_download|snapshot_download|hf_transfer|download-weights|download: text_generation_launcher|pulling [0-9a-f]{6,}|\/blobs\/sha256-|Downloading/,
  },
  explanation:
    'The model files are written to the download cache (HF_HOME / ~/.cache/huggingface, the TGI /data volume, ' +
    '~/.ollama/models) and that filesystem ran out of space before the download finished. Container root ' +
    'filesystems and small boot disks fill up fast with multi-GB shards; partial files of failed earlier attempts ' +
    'also stay in the cache.',
  fix: 'Free space or point the cache at a larger disk: `df -h` on the cache path, `huggingface-cli delete-cache` (or remove old snapshots / `ollama rm`), or set `HF_HOME=/big/disk/hf` (TGI: mount a larger volume at /data; Ollama: `OLLAMA_MODELS=/big/disk/ollama`).',
  action: [
    {
      kind: 'step',
      text: 'Free space on the cache’s disk (huggingface-cli delete-cache, or ollama rm of old models), or point the cache at a larger disk:',
    },
    {
      kind: 'environment-variable',
      name: 'HF_HOME',
      value: '/big/disk/hf',
      engines: ['vllm', 'sglang', 'lmdeploy', 'trtllm', 'llamacpp'],
    },
    { kind: 'environment-variable', name: 'OLLAMA_MODELS', value: '/big/disk/ollama', engines: ['ollama'] },
    { kind: 'step', text: '(TGI: mount a larger volume at /data)' },
  ],
  alternative:
    'Download only the files the engine needs (e.g. `huggingface-cli download <repo> --include "*.safetensors" "*.json"`) ' +
    'so .bin or .pth duplicates of the weights are not fetched too.',
  references: [
    'https://huggingface.co/docs/huggingface_hub/guides/manage-cache',
    'https://github.com/ollama/ollama/blob/main/docs/faq.md',
  ],
});
