import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'cuda-illegal-memory-access',
  title: 'a CUDA kernel accessed invalid GPU memory',
  category: 'illegal-memory-access',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy', 'llamacpp', 'ollama'],
  keywords: ['illegal memory access', 'cudaerrorillegaladdress'],
  match: {
    message: /an illegal memory access was encountered|cudaErrorIllegalAddress/,
  },
  explanation:
    'A GPU kernel read or wrote memory outside what it was given, and the CUDA context is now unusable, so every ' +
    'later CUDA call fails too. Errors are reported asynchronously: the traceback shows where the error was ' +
    'noticed, not necessarily the kernel that faulted. It is a bug in a kernel (attention backend, prefix caching, ' +
    'CUDA graphs, custom all-reduce, a quantization kernel) triggered by this model, shape or feature combination, ' +
    'rarely a hardware fault.',
  fix: 'Rerun with CUDA_LAUNCH_BLOCKING=1 to get the faulting kernel in the traceback, then disable the feature it belongs to: --enforce-eager (CUDA graphs), --no-enable-prefix-caching, another attention backend, or --disable-custom-all-reduce',
  action: [
    {
      kind: 'step',
      text: 'Rerun with CUDA_LAUNCH_BLOCKING=1 to find the faulting kernel, then turn off its feature:',
    },
    { kind: 'engine-option', option: 'enforce-eager' },
    { kind: 'step', text: 'or another attention backend, the custom all-reduce, or prefix caching' },
  ],
  alternative:
    'Upgrade the engine (these are usually fixed kernel bugs); if it happens at random on one GPU only, check ' +
    'nvidia-smi -q and dmesg for Xid errors that point at hardware.',
  references: [
    'https://github.com/vllm-project/vllm/issues/6833',
    'https://github.com/vllm-project/vllm/issues/6976',
  ],
});
