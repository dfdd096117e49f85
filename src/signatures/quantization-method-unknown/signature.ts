import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'quantization-method-unknown',
  title: 'the engine does not know the requested quantization method',
  category: 'config-invalid',
  engines: ['vllm', 'sglang'],
  keywords: ['unknown quantization method'],
  match: {
    message: /Unknown quantization method: (?<method>[\w.-]+)\. Must be one of/,
  },
  explanation:
    "The quantization method (from --quantization, or the quant_method in the checkpoint's config.json) is '{method}', " +
    'and this release has no such entry in its quantization registry: a typo, a name from another engine (TGI and ' +
    'llama.cpp use different names), a method added in a later release, or one provided by a plugin that is not ' +
    'installed or not loaded.',
  fix: 'Use one of the names listed after "Must be one of" (or drop `--quantization` to take it from the checkpoint); if {method} is newer, upgrade the engine (`pip install -U vllm` / `pip install -U sglang`).',
  action: [
    {
      kind: 'step',
      text: 'Use one of the names listed after "Must be one of" (or leave the quantization out to take it from the checkpoint); if {method} is newer, upgrade the engine:',
    },
    { kind: 'install', requirements: [], engine: true, options: ['--upgrade'] },
  ],
  alternative:
    'For a plugin-provided method, install the plugin in the same environment so it registers itself before the ' +
    'config is checked.',
  references: [
    'https://github.com/vllm-project/vllm/blob/main/vllm/model_executor/layers/quantization/__init__.py',
    'https://github.com/vllm-project/vllm/blob/main/vllm/config/model.py',
  ],
});
