import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'model-arch-not-supported',
  title: 'Model architecture not implemented by this engine version',
  category: 'model-unsupported-arch',
  engines: ['vllm', 'sglang'],
  keywords: ['not supported for now'],
  match: {
    message:
      /Model architectures? \[?'?(?<arch>[^'\]\n]+)'?\]? (?:are|is) not supported for now(?![^\n]*'\k<arch>')/,
  },
  explanation:
    "The architecture named in config.json ({arch}) is not in the engine's model registry, so it has no implementation " +
    'to build. Either the model is newer than the installed engine, or the engine never supported it. Caution: the ' +
    'registry silently drops model modules that fail to import, so check earlier lines for "Ignore import error when ' +
    'loading" or "Error in inspecting model architecture" before concluding the model is unsupported.',
  fix: 'Upgrade the engine to a release that lists {arch} among its supported models (`pip install -U vllm` or `sglang`).',
  action: [
    { kind: 'install', requirements: [], engine: true, options: ['--upgrade'] },
    { kind: 'step', text: 'to a release that lists {arch} among its supported models' },
  ],
  alternative:
    'If the architecture is listed in the error\'s "Supported architectures", the module failed to import: fix the ' +
    'import error shown earlier in the log. Otherwise try the Transformers backend (vLLM `--model-impl transformers`, ' +
    'SGLang `--model-impl transformers`).',
  references: [
    'https://github.com/sgl-project/sglang/issues/5441',
    'https://github.com/sgl-project/sglang/issues/4253',
  ],
  weight: 0.6,
});
