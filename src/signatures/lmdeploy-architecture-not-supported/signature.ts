import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'lmdeploy-architecture-not-supported',
  title: 'LMDeploy has no implementation of this model architecture',
  category: 'model-unsupported-arch',
  engines: ['lmdeploy'],
  keywords: ['can not found rewrite for architectures'],
  match: {
    message: /Can not found rewrite for architectures: \[?'?(?<arch>\w+)/,
  },
  explanation:
    "LMDeploy's PyTorch engine rewrites every supported model with its own module (its MODULE_MAP), and the " +
    'installed release has none for {arch}. TurboMind supports fewer architectures still, and LMDeploy falls back ' +
    'to the PyTorch engine for them, so this is the end of the line for the model in this version.',
  fix: 'Upgrade LMDeploy (`pip install -U lmdeploy`, or a newer openmmlab/lmdeploy image) to a release whose supported-models list includes {arch}.',
  action: [
    { kind: 'install', requirements: [], engine: true, options: ['--upgrade'] },
    {
      kind: 'step',
      text: 'or a newer openmmlab/lmdeploy image: a release whose supported models include {arch}',
    },
  ],
  alternative:
    'Serve the model with vLLM or SGLang, which can fall back to the transformers implementation, until LMDeploy adds it.',
  references: [
    'https://github.com/InternLM/lmdeploy/blob/main/lmdeploy/pytorch/models/patch.py',
    'https://github.com/InternLM/lmdeploy/blob/main/lmdeploy/pytorch/models/module_map.py',
    'https://lmdeploy.readthedocs.io/en/latest/supported_models/supported_models.html',
  ],
});
