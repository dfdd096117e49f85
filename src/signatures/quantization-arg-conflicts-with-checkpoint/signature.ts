import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'quantization-arg-conflicts-with-checkpoint',
  title: '--quantization contradicts the quantization of the checkpoint',
  category: 'config-invalid',
  engines: ['vllm', 'sglang'],
  keywords: ['does not match the quantization method specified in the'],
  match: {
    message:
      /Quantization method specified in the model config \((?<cfg>[\w.-]+)\) does not match the quantization method specified in the `quantization` argument \((?<arg>[\w.-]+)\)/,
  },
  explanation:
    "The checkpoint's config.json declares how it is quantized (quant_method {cfg}), and the --quantization argument " +
    'asks for {arg}, which cannot read those weights. Many AWQ/GPTQ checkpoints made with llm-compressor declare ' +
    'compressed-tensors, and faster kernels (e.g. marlin variants) are chosen automatically, so a --quantization copied ' +
    'from an older guide usually conflicts.',
  fix: 'Drop `--quantization {arg}` and let the engine read the method from the checkpoint (or pass `--quantization {cfg}`).',
  action: [
    {
      kind: 'step',
      text: 'Drop the quantization option ({arg}) and let the engine read the method from the checkpoint, or pass the checkpoint’s own:',
    },
    { kind: 'engine-option', option: 'quantization', value: '{cfg}' },
  ],
  alternative:
    'If you really need {arg} kernels, use a checkpoint exported in that format instead of converting on the command line.',
  references: [
    'https://github.com/vllm-project/vllm/blob/main/vllm/config/model.py',
    'https://github.com/vllm-project/vllm/issues/19050',
  ],
});
