import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'turbomind-cuda-oom',
  title: 'LMDeploy TurboMind ran out of GPU memory',
  category: 'oom-gpu',
  engines: ['lmdeploy'],
  keywords: ['[tm][error] cuda runtime error: out of memory'],
  match: {
    message: /\[TM\]\[ERROR\] CUDA runtime error: out of memory (?<site>\S+)/,
  },
  explanation:
    'A CUDA allocation inside the TurboMind engine failed at {site}. An allocation in utils/memory_utils.cu happens while ' +
    'the weights are copied to the GPU, so the model alone does not fit; one in core/allocator.cc happens at run time, ' +
    'when the KV cache (by default 80% of the memory left after the weights) plus the buffers of a large batch of ' +
    'concurrent requests exceed the card.',
  fix:
    'If it failed while loading: split the model over more GPUs with `--tp 2` or serve an AWQ checkpoint ' +
    '(`--model-format awq`). If it failed under load: give the KV cache less with `--cache-max-entry-count 0.5` and ' +
    'cap the batch with `--max-batch-size 64`.',
  action: [
    {
      kind: 'step',
      text: 'If it failed while loading, split the model over more GPUs (or serve an AWQ checkpoint):',
    },
    { kind: 'engine-option', option: 'tensor-parallel-size', value: '2' },
    { kind: 'step', text: 'if it failed under load, give the KV cache less and cap the batch:' },
    { kind: 'engine-option', option: 'gpu-memory-utilization', value: '0.5' },
    { kind: 'engine-option', option: 'max-num-seqs', value: '64' },
  ],
  alternative: 'A shorter `--session-len` also shrinks what each request may reserve.',
  references: [
    'https://github.com/InternLM/lmdeploy/issues/2381',
    'https://github.com/InternLM/lmdeploy/issues/3557',
  ],
});
