import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'torch-checkpoint-zip-corrupt',
  title: 'PyTorch checkpoint file is truncated or corrupt',
  category: 'model-load-weights',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy', 'trtllm'],
  keywords: ['pytorchstreamreader failed'],
  match: {
    message:
      /PytorchStreamReader failed (?<what>reading zip archive: [\w ]+|reading file [^\n:]+|locating file [^\n:]+)/,
  },
  explanation:
    'torch.load could not read the zip container of a .bin/.pt checkpoint ({what}). The file is incomplete or ' +
    'damaged, most often from a download or copy that stopped early, a full disk while saving, or a conversion ' +
    'that was interrupted.',
  fix: 'Re-download the damaged shard (delete it from the cache or run `huggingface-cli download <repo> --force-download`), compare its size with the one listed on the Hub, and free disk space before retrying.',
  alternative:
    'Prefer the safetensors files of the repo when it has them (vLLM `--load-format safetensors`).',
  references: [
    'https://github.com/pytorch/pytorch/blob/main/caffe2/serialize/inline_container.cc',
    'https://github.com/huggingface/transformers/issues/17262',
  ],
});
