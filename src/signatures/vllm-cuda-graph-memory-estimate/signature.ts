import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'vllm-cuda-graph-memory-estimate',
  title: 'The CUDA graph memory estimate took the KV cache budget',
  category: 'kv-cache-insufficient',
  engines: ['vllm'],
  keywords: ['no available memory for the cache blocks', 'available kv cache memory: -'],
  match: {
    message: /No available memory for the cache blocks|Available KV cache memory: -\d/,
    // An estimate of ten GiB or more: graphs usually take well under one, so the estimate is the outlier.
    context: /Estimated CUDA graph memory: (?<graph>\d{2,}(?:\.\d+)?) GiB/,
  },
  blame: 'context',
  explanation:
    'While profiling, vLLM estimated that capturing the CUDA graphs would take {graph} GiB and set that much aside ' +
    'before sizing the KV cache, which left nothing for it. The error says to raise gpu_memory_utilization, but the ' +
    'estimate, not the budget, is what used the memory up.',
  fix:
    'Start without the CUDA graph estimate ({graph} GiB): `VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0`, and leave ' +
    'headroom with `--gpu-memory-utilization 0.85`.',
  action: [
    { kind: 'step', text: 'Start without the CUDA graph estimate ({graph} GiB), and leave headroom:' },
    {
      kind: 'environment-variable',
      name: 'VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS',
      value: '0',
      engines: ['vllm'],
    },
    { kind: 'engine-option', option: 'gpu-memory-utilization', value: '0.85' },
  ],
  alternative:
    'Or capture fewer or smaller graphs (a lower `--max-num-seqs`, or `--compilation-config` with fewer `cudagraph_capture_sizes`), or skip capture with `--enforce-eager`.',
  references: ['https://github.com/vllm-project/vllm/issues/53013'],
});
