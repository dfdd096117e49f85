import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'cuda-oom-cudagraph-capture',
  title: 'GPU out of memory while capturing CUDA graphs',
  category: 'oom-gpu',
  engines: ['vllm', 'sglang'],
  keywords: ['out of memory'],
  match: {
    message: /out of memory/i,
    frames: /cuda_?graph|capture/i,
  },
  explanation:
    'The weights loaded and the KV cache was allocated, then the engine ran out of GPU memory while recording CUDA graphs ' +
    'for the decode batch sizes. Graph capture needs memory on top of what the memory budget set aside, so a budget ' +
    'close to the whole card (a high gpu_memory_utilization or mem_fraction_static) leaves no room for it.',
  fix:
    'Leave headroom for the graphs: vLLM `--gpu-memory-utilization 0.85` (or lower than the value you used), SGLang ' +
    '`--mem-fraction-static 0.8`. Capturing fewer batch sizes also helps: vLLM `--max-num-seqs 64`, SGLang ' +
    '`--cuda-graph-max-bs 64`.',
  action: [
    { kind: 'step', text: 'Leave headroom for the CUDA graphs (a lower share than the one you used):' },
    { kind: 'engine-option', option: 'gpu-memory-utilization', value: '0.85' },
    { kind: 'step', text: 'and capture fewer batch sizes:' },
    { kind: 'engine-option', option: 'max-num-seqs', value: '64' },
  ],
  alternative:
    'Skip graph capture entirely with vLLM `--enforce-eager` or SGLang `--disable-cuda-graph`, at some cost in decode speed.',
  references: [
    'https://github.com/vllm-project/vllm/issues/15598',
    'https://docs.vllm.ai/en/latest/configuration/conserving_memory/',
  ],
});
