import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'safetensors-corrupt',
  title: 'Corrupt or incomplete safetensors file',
  category: 'model-load-weights',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy', 'trtllm'],
  keywords: ['deserializing header', 'file not fully covered', 'safetensorerror'],
  match: {
    message:
      /Error while deserializing header: \w+|incomplete metadata, file not fully covered|MetadataIncompleteBuffer|HeaderTooLarge|InvalidHeaderDeserialization/,
  },
  explanation:
    'A .safetensors shard could not be parsed: its header is truncated or garbled. The file was cut short by an ' +
    'interrupted download or copy, the disk filled up while writing it, it is a Git LFS pointer instead of the real ' +
    'file, or the uploaded shard itself is broken.',
  fix:
    'Delete the broken shard and download it again, e.g. `huggingface-cli download <repo> --force-download`, or remove ' +
    'the model folder under ~/.cache/huggingface/hub and let the server fetch it anew.',
  alternative:
    'Compare file sizes and sha256 with the Hub listing; if a fresh download fails the same way, the upload is broken ' +
    'and the repo owner has to fix it.',
  references: [
    'https://github.com/QwenLM/Qwen3-VL/issues/264',
    'https://github.com/gpustack/gpustack/issues/815',
  ],
});
