import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'transformers-too-old-for-model',
  title: 'transformers is too old for this model',
  category: 'dependency-mismatch',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy'],
  keywords: ['transformers does not recognize this architecture'],
  match: {
    message: /model type `?(?<model_type>[\w.-]+)`? but Transformers does not recognize this architecture/,
  },
  explanation:
    "The checkpoint's config.json declares model_type {model_type}, which the installed transformers does not " +
    'know, so the configuration cannot even be parsed and loading stops before any weights are read. The model is ' +
    'newer than your transformers (and often newer than your engine release too).',
  fix: 'pip install -U transformers',
  action: [{ kind: 'install', requirements: ['transformers'], options: ['--upgrade'] }],
  alternative:
    'If the engine pins an older transformers, upgrade the engine to a release that lists {model_type} among its ' +
    'supported models; for a model released days ago, pip install git+https://github.com/huggingface/transformers.',
  references: [
    'https://github.com/vllm-project/vllm/issues/23206',
    'https://github.com/vllm-project/vllm/issues/19793',
  ],
});
