import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'transformers-autoclass-unrecognized-config',
  title: 'transformers has no model class of this kind for the config',
  category: 'model-unsupported-arch',
  engines: ['tgi', 'vllm', 'sglang', 'lmdeploy', 'trtllm'],
  keywords: ['unrecognized configuration class'],
  match: {
    message:
      /Unrecognized configuration class <class '(?:[\w.]+\.)?(?<config>\w+)'> for this kind of AutoModel: (?<auto>\w+)/,
  },
  explanation:
    'The server loads the model through transformers with {auto}, and transformers has no class of that kind for ' +
    '{config}: the model is of another kind (a vision-language, encoder or embedding model loaded as a causal LM), ' +
    'or its architecture is newer than the installed transformers and needs the repository code.',
  fix: 'Check that the engine supports this model for the task you started it with; if the model ships its own code, add `--trust-remote-code`; otherwise upgrade transformers (`pip install -U transformers`).',
  action: [
    {
      kind: 'step',
      text: 'Check that the engine supports this model for the task you started it with; if the model ships its own code:',
    },
    { kind: 'engine-option', option: 'trust-remote-code' },
    { kind: 'step', text: 'otherwise upgrade transformers:' },
    { kind: 'install', requirements: ['transformers'], options: ['--upgrade'] },
  ],
  alternative:
    'Serve it with an engine or task that matches the model kind (e.g. an embedding or vision-language mode), or ' +
    'use a checkpoint of the same model packaged for causal generation.',
  references: [
    'https://github.com/huggingface/transformers/blob/main/src/transformers/models/auto/auto_factory.py',
    'https://github.com/huggingface/text-generation-inference/blob/main/server/text_generation_server/models/causal_lm.py',
  ],
});
