import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'no-model-weights-found',
  title: 'No weight files found for the model',
  category: 'model-load-weights',
  engines: ['vllm', 'sglang', 'tgi'],
  keywords: ['cannot find any model weights', 'no local weights found', 'weights found for model'],
  match: {
    message:
      /Cannot find any model weights with `[^`\n]+`|No local weights found in \S+ with extension|No \.\w+ weights found for model \S+/,
  },
  explanation:
    'The model directory or repo was found, but it holds no weight files in a format the loader looks for ' +
    '(.safetensors, or .bin/.pt for the PyTorch format). The download stopped after the config files, the weights ' +
    'sit in a subfolder, or the repo ships only another format (GGUF, an adapter without base weights).',
  fix:
    'List the directory and make sure the *.safetensors shards (with model.safetensors.index.json) are there; ' +
    're-download with `huggingface-cli download <repo>` if they are missing.',
  alternative:
    'If the repo only has .bin files, allow them (vLLM `--load-format pt`); for a LoRA adapter serve the base model and ' +
    'pass the adapter with `--enable-lora --lora-modules name=path`.',
  references: ['https://docs.vllm.ai/en/stable/configuration/engine_args/'],
});
