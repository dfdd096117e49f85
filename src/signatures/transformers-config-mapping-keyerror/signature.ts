import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'transformers-config-mapping-keyerror',
  title: 'transformers has no config class for the model type (KeyError in CONFIG_MAPPING)',
  category: 'dependency-mismatch',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy', 'trtllm'],
  keywords: ['keyerror'],
  match: {
    exception: 'KeyError',
    // Older transformers raise a bare KeyError('<model_type>') from CONFIG_MAPPING; a missing model_type key in
    // config.json is another problem.
    message: /^'(?!model_type')(?<model_type>[\w.-]+)'$/,
    frames: /configuration_auto\.py:(?:__getitem__|from_pretrained)/,
  },
  explanation:
    'config.json declares model_type {model_type}, and transformers looked it up in its table of configuration ' +
    'classes (CONFIG_MAPPING) without finding it: the installed transformers predates the model. Releases before ' +
    '4.36 report this as a bare KeyError instead of the clearer "does not recognize this architecture" message.',
  fix: 'pip install -U transformers  (and, if the engine pins transformers, upgrade the engine to a release that supports {model_type})',
  action: [
    { kind: 'install', requirements: ['transformers'], options: ['--upgrade'] },
    {
      kind: 'step',
      text: 'and, if the engine pins transformers, upgrade the engine to a release that supports {model_type}',
    },
  ],
  alternative:
    'If the model ships its own code (auto_map in config.json), `--trust-remote-code` loads its configuration class ' +
    'from the repository instead.',
  references: [
    'https://github.com/huggingface/transformers/blob/main/src/transformers/models/auto/configuration_auto.py',
  ],
  // Newer transformers re-raise it as "does not recognize this architecture", whose signature should win.
  weight: 0.7,
});
