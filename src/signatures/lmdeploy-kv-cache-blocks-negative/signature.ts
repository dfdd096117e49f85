import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'lmdeploy-kv-cache-blocks-negative',
  title: 'LMDeploy sized its KV cache to a negative number of blocks',
  category: 'kv-cache-insufficient',
  engines: ['lmdeploy'],
  keywords: ['negative dimension'],
  match: {
    exception: 'RuntimeError',
    message: /Trying to create tensor with negative dimension (?<blocks>-\d+): \[-\d+,/,
    // The cache engine's allocation in LMDeploy's PyTorch backend, not any negative shape.
    frames: /lmdeploy\//,
  },
  explanation:
    'LMDeploy gives the KV cache a share of the GPU memory that is free after the weights load ' +
    '(`--cache-max-entry-count`, 0.8 by default) and divides it into blocks. The weights left so little that the ' +
    'count came out as {blocks}, and allocating the cache with that first dimension failed.',
  fix:
    'Free memory for the cache: serve on more GPUs (`--tp 2`), or a quantized model (`--model-format awq`), and ' +
    'check with nvidia-smi that no other process holds memory; the cache had {blocks} blocks.',
  action: [
    {
      kind: 'step',
      text: 'The cache had {blocks} blocks: free memory for it (nvidia-smi shows other processes on the GPU) and serve on more GPUs:',
    },
    { kind: 'engine-option', option: 'tensor-parallel-size', value: '2' },
    { kind: 'step', text: 'or a quantized (AWQ) model' },
  ],
  alternative: 'Or lower what one session needs: a smaller `--session-len`.',
  references: ['https://lmdeploy.readthedocs.io/en/latest/api/cli.html'],
});
