import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'lmdeploy-no-gpu-memory-for-kv-cache',
  title: 'LMDeploy: no GPU memory left for the KV cache',
  category: 'kv-cache-insufficient',
  engines: ['lmdeploy'],
  keywords: ['no enough gpu memory for kv cache'],
  match: {
    message: /No enough gpu memory for kv cache/,
  },
  explanation:
    'After loading the weights, the LMDeploy PyTorch engine sizes the KV cache from the free GPU memory times ' +
    'cache_max_entry_count, and that budget did not fit a single cache block. The weights take (almost) all of ' +
    'the card, another process holds memory, or cache_max_entry_count is set very low.',
  fix: 'Give the cache room: spread the model over more GPUs (`--tp 2`), serve a quantized model (AWQ / `--quant-policy 8` for an int8 KV cache), or raise `--cache-max-entry-count` (fraction of free memory, default 0.8) if you lowered it.',
  action: [
    { kind: 'step', text: 'Give the cache room: spread the model over more GPUs:' },
    { kind: 'engine-option', option: 'tensor-parallel-size', value: '2' },
    {
      kind: 'step',
      text: 'or serve a quantized model (AWQ, or an int8 KV cache); raise the cache’s share of free memory (default 0.8) if you lowered it',
    },
  ],
  alternative:
    'Free the GPU of other processes (check nvidia-smi) and lower `--session-len` to need fewer blocks per sequence.',
  references: [
    'https://github.com/InternLM/lmdeploy/blob/main/lmdeploy/pytorch/engine/cache_engine.py',
    'https://github.com/InternLM/lmdeploy/blob/main/lmdeploy/pytorch/engine/executor/base.py',
  ],
});
