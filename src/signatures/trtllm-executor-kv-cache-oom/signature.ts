import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'trtllm-executor-kv-cache-oom',
  title: 'TensorRT-LLM could not allocate the KV cache',
  category: 'kv-cache-insufficient',
  engines: ['trtllm'],
  keywords: ['executor creation failed due to insufficient gpu memory'],
  match: {
    message: /Executor creation failed due to insufficient GPU memory/,
    // The PyTorch backend's memory monitor names the component it was creating on a following line.
    context: /The following component could not be created: (?<component>(?:Initial )?KV [Cc]ache)/,
  },
  explanation:
    'The model loaded, but TensorRT-LLM ran out of GPU memory while creating the {component}: after the weights and ' +
    'the other executor resources, what kv_cache_config.free_gpu_memory_fraction leaves is not enough for the KV ' +
    'cache blocks that max_num_tokens / max_batch_size / max_seq_len ask for (the table after the message shows free ' +
    'memory before each component).',
  fix:
    'Ask for less KV cache: lower kv_cache_config.free_gpu_memory_fraction (e.g. 0.8) or max_num_tokens / max_batch_size ' +
    '/ max_seq_len in the extra LLM API options (`--extra_llm_api_options`).',
  action: [
    { kind: 'step', text: 'Ask for less KV cache:' },
    { kind: 'engine-option', option: 'gpu-memory-utilization', value: '0.8' },
    {
      kind: 'step',
      text: 'or lower max_num_tokens / max_batch_size / max_seq_len in the extra LLM API options',
    },
  ],
  alternative:
    'Or give each rank more memory: shard over more GPUs (tp/pp), use an FP8 KV cache (kv_cache_config.dtype), or ' +
    'stop other processes on the GPU (nvidia-smi).',
  references: [
    'https://github.com/NVIDIA/TensorRT-LLM/blob/main/tensorrt_llm/_torch/pyexecutor/py_executor_creator.py',
  ],
});
