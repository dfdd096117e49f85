import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'cuda-out-of-memory',
  title: 'GPU out of memory (CUDA out of memory)',
  category: 'oom-gpu',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy', 'trtllm'],
  keywords: ['out of memory'],
  match: {
    message:
      /(?:CUDA|HIP|XPU|NPU) out of memory|CUDA error: out of memory|CUDA runtime error in [^\n]*?: out of memory|cudaErrorMemoryAllocation/,
  },
  explanation:
    'A CUDA allocation failed because the GPU had no free block of the requested size (torch words it HIP, XPU or NPU ' +
    'out of memory on AMD, Intel and Ascend accelerators). While the server starts this ' +
    'usually means the weights plus the memory reserved for activations and KV cache do not fit on the card, or that ' +
    'another process (an earlier server that did not exit, a notebook) still holds part of it.',
  fix:
    'Check `nvidia-smi` for other processes on the GPU and stop them. Then give the model more room: shard it over more ' +
    'GPUs (vLLM `--tensor-parallel-size 2`, SGLang `--tp 2`, TGI `--num-shard 2`), or serve a quantized checkpoint.',
  action: [
    {
      kind: 'step',
      text: 'Check `nvidia-smi` for other processes on the GPU and stop them; then shard the model:',
    },
    { kind: 'engine-option', option: 'tensor-parallel-size', value: '2' },
    { kind: 'step', text: 'or serve a quantized checkpoint' },
  ],
  alternative:
    'Reduce what is reserved besides the weights: a smaller `--max-model-len` and `--max-num-seqs` (vLLM), a lower ' +
    '`--mem-fraction-static` (SGLang), or lower `--max-batch-prefill-tokens` (TGI). If the message mentions ' +
    'fragmentation, set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True.',
  references: [
    'https://docs.vllm.ai/en/latest/configuration/conserving_memory/',
    'https://github.com/vllm-project/vllm/issues/15598',
  ],
});
