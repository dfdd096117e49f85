import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'quantization-dtype-unsupported',
  title: 'Activation dtype not supported by the quantization method',
  category: 'config-invalid',
  engines: ['vllm', 'sglang'],
  keywords: ['is not supported for quantization method'],
  match: {
    message:
      /(?<dtype>torch\.\w+) is not supported for quantization method (?<method>\w+)\. Supported dtypes: (?<supported>\[[^\]\n]*\])/,
  },
  explanation:
    'The {method} kernels only run with activations in {supported}, but the model was loaded as {dtype} (with ' +
    '`--dtype auto` the dtype comes from the checkpoint config, e.g. a model trained in bfloat16).',
  fix: 'Load the model in a supported dtype: `--dtype half` (float16) for {method}.',
  action: [
    { kind: 'step', text: 'Load the model in a dtype {method} supports:' },
    { kind: 'engine-option', option: 'dtype', value: 'float16' },
  ],
  alternative: 'Or use a checkpoint whose quantization method supports {dtype}.',
  references: ['https://github.com/vllm-project/vllm/issues/1941'],
});
