import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'weight-name-not-in-model',
  title: 'Checkpoint tensor has no matching parameter in the model',
  category: 'model-load-weights',
  engines: ['vllm', 'sglang', 'tgi'],
  keywords: ['keyerror', 'does not exist'],
  match: {
    exception: /(?:^|\.)(?:KeyError|RuntimeError)$/,
    message:
      /(?:^|KeyError: |weight )'?(?<name>[\w-]+\.[\w.-]*(?:weight|bias|scales?|zeros|g_idx)\w*)(?:'?$| does not exist)/,
  },
  explanation:
    'While loading weights, the engine met the tensor {name} in the checkpoint (or looked for it there) and could not ' +
    'pair it with a parameter of its own implementation of this architecture. The checkpoint layout does not match ' +
    'what this engine version expects: typically a quantized or re-packed export (fused experts, a new quantization ' +
    'format) that the installed version does not know, or a wrong checkpoint for the architecture named in config.json.',
  fix:
    'Use a checkpoint in a layout this engine supports (the original release or a quantization listed in its docs), or ' +
    'upgrade the engine to a version that added loading for this layout.',
  action: [
    {
      kind: 'step',
      text: 'Use a checkpoint in a layout this engine supports (the original release or a quantization listed in its docs), or upgrade the engine to a version that added loading for this layout:',
    },
    { kind: 'install', requirements: [], engine: true, options: ['--upgrade'] },
  ],
  alternative:
    'If you exported the checkpoint yourself, compare its tensor names with the original model (e.g. with ' +
    '`safetensors` metadata) and re-export with the standard naming.',
  references: ['https://github.com/vllm-project/vllm/issues/23025'],
});
