import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'tgi-unsupported-model-type',
  title: 'TGI does not support this model type',
  category: 'model-unsupported-arch',
  engines: ['tgi'],
  keywords: ['unsupported model type'],
  match: {
    exception: 'ValueError',
    message: /^Unsupported model type (?<type>[\w.-]+)/,
  },
  explanation:
    'text-generation-server maps the model_type of config.json ({type}) to one of its own implementations and, for ' +
    'causal and seq2seq models, to transformers as a fallback. Neither knows this model type in the installed TGI ' +
    'image, so the shard exits while choosing the model class.',
  fix: 'Use a newer TGI image (`ghcr.io/huggingface/text-generation-inference:latest`) if its supported-models list includes {type}; otherwise serve it with an engine that does.',
  action: [
    { kind: 'install', requirements: [], engine: true, options: ['--upgrade'] },
    {
      kind: 'step',
      text: 'if its supported-models list includes {type}; otherwise serve it with an engine that does',
    },
  ],
  alternative:
    'For a model with its own modeling code (auto_map in config.json), `--trust-remote-code` lets TGI load it through ' +
    'transformers without flash attention or sharding.',
  references: [
    'https://github.com/huggingface/text-generation-inference/blob/main/server/text_generation_server/models/__init__.py',
    'https://huggingface.co/docs/text-generation-inference/supported_models',
  ],
});
