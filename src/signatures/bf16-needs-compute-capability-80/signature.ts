import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'bf16-needs-compute-capability-80',
  title: 'bfloat16 on a GPU older than Ampere',
  category: 'gpu-arch-unsupported',
  engines: ['vllm', 'sglang', 'tgi'],
  keywords: ['bfloat16 is only supported on gpus with compute capability'],
  match: {
    message:
      /Bfloat16 is only supported on GPUs with compute capability of at least 8\.0\.\s*Your (?<gpu>[^\n]+?) GPU has compute capability (?<cc>\d+\.\d+)/,
  },
  explanation:
    "The model's config asks for bfloat16 (torch_dtype: bfloat16, the default for most recent checkpoints) and the " +
    'engine keeps it, but the {gpu} has compute capability {cc}: bfloat16 arithmetic needs 8.0 (Ampere) or newer. ' +
    'The engine stops before loading the weights.',
  fix: 'Add --dtype half (float16) to the server command, e.g. vllm serve <model> --dtype half',
  action: [
    { kind: 'step', text: 'This GPU ({gpu}, compute capability {cc}) has no bfloat16: serve in float16:' },
    { kind: 'engine-option', option: 'dtype', value: 'float16' },
  ],
  alternative:
    'float16 has a smaller range than bfloat16; if a model overflows in float16 (NaN or garbage output), use ' +
    '--dtype float32 on a GPU with enough memory, or an Ampere-or-newer GPU.',
  references: [
    'https://github.com/vllm-project/vllm/issues/946',
    'https://github.com/vllm-project/vllm/issues/9990',
  ],
});
