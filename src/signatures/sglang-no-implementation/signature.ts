import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'sglang-no-implementation',
  title: 'SGLang has no implementation for the architecture',
  category: 'model-unsupported-arch',
  engines: ['sglang'],
  keywords: ['has no sglang implementation'],
  match: {
    message:
      /(?<arch>\w+) has no SGlang implementation and the Transformers implementation is not compatible with SGLang/i,
  },
  explanation:
    'SGLang has no native model class for {arch}, and its fallback (running the transformers implementation inside ' +
    'SGLang) does not work for this model either. Sometimes the native class exists but its module failed to import ' +
    'or is not registered, which looks the same.',
  fix: 'Upgrade SGLang to a release that supports {arch} (`pip install -U "sglang[all]"`).',
  action: [
    { kind: 'install', requirements: ['sglang[all]'], options: ['--upgrade'] },
    { kind: 'step', text: 'a release that supports {arch}' },
  ],
  alternative:
    'Check earlier lines for "Ignore import error when loading sglang.srt.models" (an import failure hides the native ' +
    'class), or serve the model with an engine that supports it.',
  references: [
    'https://github.com/sgl-project/sglang/issues/12835',
    'https://github.com/sgl-project/sglang/pull/5929',
  ],
});
