import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'cuda-kernel-fault',
  title: 'a CUDA kernel crashed (misaligned address, illegal instruction, launch failure)',
  category: 'illegal-memory-access',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy', 'llamacpp', 'ollama'],
  keywords: ['misaligned address', 'illegal instruction was encountered', 'unspecified launch failure'],
  match: {
    message:
      /CUDA (?:error|Error)[:\s][^\n]*?(?<what>misaligned address|an illegal instruction was encountered|unspecified launch failure)/,
  },
  explanation:
    'A GPU kernel faulted ({what}) and the CUDA context is unusable from then on, so later calls fail too. Like ' +
    'an illegal memory access, it is a kernel bug triggered by this model, shape or feature (attention or MoE ' +
    'kernels, CUDA graphs, custom all-reduce) or, for "unspecified launch failure", possibly a GPU fault or ' +
    'watchdog timeout. The traceback may not point at the kernel that faulted.',
  fix: 'Rerun with CUDA_LAUNCH_BLOCKING=1 to find the kernel, then disable its feature: --enforce-eager (CUDA graphs), another attention backend, --disable-custom-all-reduce; check dmesg for NVIDIA Xid errors',
  action: [
    {
      kind: 'step',
      text: 'Rerun with CUDA_LAUNCH_BLOCKING=1 to find the kernel, then turn off its feature:',
    },
    { kind: 'engine-option', option: 'enforce-eager' },
    {
      kind: 'step',
      text: 'or another attention backend or the custom all-reduce; check dmesg for NVIDIA Xid errors',
    },
  ],
  alternative:
    'Upgrade the engine and its kernel packages (flashinfer, sgl-kernel); these faults are usually fixed bugs.',
  references: ['https://github.com/vllm-project/vllm/issues/6976'],
});
