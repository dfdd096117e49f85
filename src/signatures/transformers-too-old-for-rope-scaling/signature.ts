import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'transformers-too-old-for-rope-scaling',
  title: "transformers is too old for the model's rope_scaling",
  category: 'dependency-mismatch',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy', 'trtllm'],
  keywords: ['must be a dictionary with with two fields'],
  match: {
    message: /`rope_scaling` must be a dictionary with with two fields, `(?:type|name)` and `factor`/,
  },
  explanation:
    "The model's config.json describes RoPE scaling in the newer form (rope_type such as llama3, yarn or longrope, " +
    'with extra fields), and the installed transformers only accepts the old two-field {type, factor} form, so it ' +
    'rejects the config before anything is loaded. Llama 3.1 and later checkpoints need transformers 4.43 or newer.',
  fix: 'pip install -U "transformers>=4.43"  (or upgrade the engine image, which ships a matching transformers)',
  action: [
    { kind: 'install', requirements: ['transformers>=4.43'], options: ['--upgrade'] },
    { kind: 'step', text: 'or a newer engine image, which ships a matching transformers' },
  ],
  alternative:
    'Only if you cannot upgrade: edit rope_scaling in a local copy of config.json to the old form, which changes ' +
    'long-context behaviour and is not equivalent.',
  references: [
    'https://github.com/huggingface/transformers/blob/v4.42.0/src/transformers/models/llama/configuration_llama.py',
    'https://github.com/huggingface/transformers/releases/tag/v4.43.0',
  ],
});
