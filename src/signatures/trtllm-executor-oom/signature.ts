import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'trtllm-executor-oom',
  title: 'TensorRT-LLM ran out of GPU memory while creating the executor',
  category: 'oom-gpu',
  engines: ['trtllm'],
  keywords: ['executor creation failed due to insufficient gpu memory'],
  match: {
    message: /Executor creation failed due to insufficient GPU memory/,
    // The KV cache components have their own signature (trtllm-executor-kv-cache-oom).
    context:
      /The following component could not be created: (?<component>(?!(?:Initial )?KV [Cc]ache)\w[^\n]*)/,
  },
  explanation:
    'TensorRT-LLM ran out of GPU memory while creating the {component} of the executor. For the model itself this ' +
    'means the weights (plus the activation buffers max_num_tokens asks for) do not fit on each GPU; for the other ' +
    'components the budgets set by max_seq_len, max_batch_size or speculative decoding are too large for what is ' +
    'left. The table after the message shows free memory before each component.',
  fix:
    'Follow the per-component hint TensorRT-LLM prints under "Possible options include": for the model, shard it ' +
    'over more GPUs (tp/pp) or serve a quantized checkpoint; otherwise reduce max_num_tokens, max_seq_len or ' +
    'max_batch_size.',
  alternative: 'Check nvidia-smi for other processes holding GPU memory and stop them.',
  references: [
    'https://github.com/NVIDIA/TensorRT-LLM/blob/main/tensorrt_llm/_torch/pyexecutor/py_executor_creator.py',
  ],
});
