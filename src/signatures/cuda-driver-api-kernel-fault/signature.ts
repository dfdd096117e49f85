import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'cuda-driver-api-kernel-fault',
  title: 'a GPU kernel faulted (CUDA driver API error code)',
  category: 'illegal-memory-access',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy', 'llamacpp', 'ollama'],
  keywords: [
    'cuda_error_illegal_address',
    'cuda_error_illegal_instruction',
    'cuda_error_misaligned_address',
    'cuda_error_launch_failed',
    'cudaerrormisalignedaddress',
    'cudaerrorlaunchfailure',
    'cudaerrorillegalinstruction',
  ],
  match: {
    message:
      /(?<code>CUDA_ERROR_(?:ILLEGAL_ADDRESS|ILLEGAL_INSTRUCTION|MISALIGNED_ADDRESS|LAUNCH_FAILED)|cudaError(?:MisalignedAddress|LaunchFailure|IllegalInstruction))\b/,
  },
  explanation:
    'A GPU kernel crashed ({code}): it touched memory it does not own, hit a misaligned access or an illegal ' +
    'instruction. The error comes from the CUDA driver API (Triton, FlashInfer, cuBLASLt, NCCL or a JIT kernel) ' +
    'rather than the runtime, and the CUDA context is unusable after it. It is a kernel bug for this shape, ' +
    'dtype or feature combination, rarely hardware.',
  fix: 'Rerun with CUDA_LAUNCH_BLOCKING=1 to find the faulting kernel, then turn off the feature it belongs to: `--enforce-eager` (CUDA graphs), another attention backend, `--disable-custom-all-reduce`, or no prefix caching.',
  action: [
    {
      kind: 'step',
      text: 'Rerun with CUDA_LAUNCH_BLOCKING=1 to find the faulting kernel, then turn off its feature:',
    },
    { kind: 'engine-option', option: 'enforce-eager' },
    { kind: 'step', text: 'or another attention backend, the custom all-reduce, or prefix caching' },
  ],
  alternative:
    'Upgrade the engine and its kernel packages (flashinfer, triton); if it happens on one GPU only, look for Xid ' +
    'errors in `dmesg` / `nvidia-smi -q`.',
  references: [
    'https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html',
    'https://github.com/vllm-project/vllm/issues/6976',
  ],
});
