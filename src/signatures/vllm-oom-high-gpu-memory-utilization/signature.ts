import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'vllm-oom-high-gpu-memory-utilization',
  title: 'Workers died after profiling with gpu_memory_utilization close to 1',
  category: 'oom-gpu',
  engines: ['vllm'],
  keywords: ['gpu_memory_utilization'],
  match: {
    // The memory-budget line itself is the candidate: on Ray and multi-GPU setups the OOM error is often lost.
    message: /gpu_memory_utilization[^\d\n]{0,8}(?<util>0\.9[5-9]\d*|1\.0*)(?![\d.])/,
  },
  explanation:
    'This run budgeted gpu_memory_utilization {util}, so vLLM sized its KV cache to fill almost the whole card. The ' +
    'memory that CUDA graph capture, NCCL buffers and the CUDA context need on top of that budget was not there, and ' +
    'the workers failed right after profiling; on multi-GPU and Ray setups the out-of-memory error itself is often cut ' +
    'off and only the wrapper error is left.',
  fix: 'Leave headroom: `--gpu-memory-utilization 0.9` (instead of {util}).',
  action: [
    { kind: 'step', text: 'Leave headroom (instead of {util}):' },
    { kind: 'engine-option', option: 'gpu-memory-utilization', value: '0.9' },
  ],
  alternative:
    'Keep the budget but capture fewer graphs (`--max-num-seqs 64`, a smaller `--max-model-len`), or skip capture with ' +
    '`--enforce-eager`.',
  references: ['https://github.com/vllm-project/vllm/issues/15598'],
  // Only an inference from the settings: any real error of the failed start outweighs it.
  weight: 0.5,
});
