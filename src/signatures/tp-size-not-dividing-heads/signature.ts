import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'tp-size-not-dividing-heads',
  title: 'Tensor-parallel size does not divide the number of attention heads',
  category: 'config-invalid',
  engines: ['vllm', 'sglang', 'tgi'],
  keywords: ['must be divisible by'],
  match: {
    message:
      /(?:number of attention heads \(|got `num_heads`: )(?<heads>\d+)\)?(?: must be divisible by tensor parallel size \(| and `num_shards`: )(?<tp>\d+)/,
  },
  explanation:
    'Tensor parallelism gives every GPU an equal slice of the attention heads, so the number of GPUs must divide the ' +
    'head count. This model has {heads} heads, which cannot be split evenly over {tp} GPUs.',
  fix:
    'Pick a tensor-parallel size that divides {heads} (vLLM `--tensor-parallel-size`, SGLang `--tp`, TGI `--num-shard`), ' +
    'e.g. the largest power of two that divides {heads} and is at most your GPU count.',
  action: [
    { kind: 'step', text: 'Pick a tensor-parallel size that divides {heads}:' },
    { kind: 'engine-option', option: 'tensor-parallel-size', value: '{tp}', divides: '{heads}' },
  ],
  alternative:
    'To use all {tp} GPUs anyway, combine a smaller tensor-parallel size with pipeline parallelism (vLLM ' +
    '`--pipeline-parallel-size`), or run several replicas with data parallelism.',
  references: [
    'https://github.com/vllm-project/vllm/issues/414',
    'https://github.com/vllm-project/vllm/issues/11797',
  ],
});
