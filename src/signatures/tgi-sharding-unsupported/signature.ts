import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'tgi-sharding-unsupported',
  title: 'TGI cannot shard this model (no native implementation)',
  category: 'model-unsupported-arch',
  engines: ['tgi'],
  keywords: ['is not supported for automodel', 'sharded is not supported', 'requires flash attention'],
  match: {
    message:
      /sharded is not supported for (?:AutoModel|this model)|Sharded \S+ requires Flash Attention enabled models|\w+ quantization is not supported for AutoModel/,
  },
  explanation:
    'TGI has optimized, shardable implementations only for the architectures it knows (and only where its Flash ' +
    'Attention kernels load). For anything else it falls back to the generic transformers AutoModel path, which runs ' +
    'on one GPU only and supports no custom quantization, so a multi-GPU (sharded) or quantized launch stops here.',
  fix:
    'Run on a single GPU without sharding (`--num-shard 1`, or drop `--sharded true`), or use a TGI image whose release ' +
    'notes list native support for this architecture.',
  action: [
    {
      kind: 'step',
      text: 'Run on a single GPU without sharding, or use a TGI image whose release notes list native support for this architecture:',
    },
    { kind: 'engine-option', option: 'tensor-parallel-size', value: '1' },
  ],
  alternative:
    'If the log also shows "Could not import Flash Attention enabled models", the native implementation exists but its ' +
    "kernels failed to load on this GPU; fix that (or use a GPU TGI's flash kernels support) to get sharding back.",
  references: ['https://github.com/aws-samples/generative-ai-on-aws-immersion-day/issues/13'],
});
