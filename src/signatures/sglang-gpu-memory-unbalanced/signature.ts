import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'sglang-gpu-memory-unbalanced',
  title: 'SGLang found less free memory on some GPUs than on others',
  category: 'oom-gpu',
  engines: ['sglang'],
  keywords: ['the memory capacity is unbalanced'],
  match: {
    // Raised (RuntimeError, older releases ValueError) unless the check is disabled; then it is only a warning.
    exception: /(?:^|\.)(?:RuntimeError|ValueError)$/,
    message: /The memory capacity is unbalanced/,
  },
  explanation:
    'With tensor parallelism SGLang sizes the KV cache from the GPU with the least free memory, and at start-up it ' +
    'compares every rank with that minimum: one GPU had less than 90% of the free memory of another. Another process ' +
    '(a previous server that did not exit, a notebook, a second container) still holds memory on some of the GPUs, or ' +
    'the GPUs differ in size.',
  fix: 'Free the GPUs first: `nvidia-smi` to find the processes still holding memory, stop them (a leftover `sglang::scheduler` or old container), then start again.',
  action: [
    {
      kind: 'step',
      text: 'Free the GPUs first: find the processes still holding memory (a leftover sglang::scheduler or old container), stop them, then start again:',
    },
    { kind: 'command', argv: ['nvidia-smi'], where: 'host' },
  ],
  alternative:
    'If the imbalance is intended (mixed GPU sizes, a shared GPU), set `SGLANG_ENABLE_TP_MEMORY_INBALANCE_CHECK=0` ' +
    '(older releases: `SGL_DISABLE_TP_MEMORY_INBALANCE_CHECK=1`) and keep `--mem-fraction-static` low enough for the ' +
    'smallest GPU.',
  references: [
    'https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/model_executor/model_runner.py',
  ],
});
