import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'ptx-unsupported-toolchain',
  title: 'PTX from a newer CUDA than the driver supports',
  category: 'driver-cuda-mismatch',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy', 'llamacpp', 'ollama'],
  keywords: ['ptx was compiled with an unsupported toolchain', 'unsupportedptxversion'],
  match: {
    message: /the provided PTX was compiled with an unsupported toolchain|cudaErrorUnsupportedPtxVersion/,
  },
  explanation:
    'A kernel was shipped or generated as PTX by a CUDA toolkit newer than the installed NVIDIA driver, which has ' +
    'to compile PTX for the GPU and only understands PTX up to its own CUDA version. It shows up with Triton or ' +
    'JIT-built kernels, or wheels built with a newer CUDA, on a host with an older driver.',
  fix: 'Upgrade the NVIDIA driver to one that supports the CUDA version of the toolkit (or of torch.version.cuda); nvidia-smi shows the highest CUDA the current driver supports',
  action: [
    { kind: 'step', text: 'Check the highest CUDA the current driver supports (top right of this):' },
    { kind: 'command', argv: ['nvidia-smi'], where: 'host' },
    {
      kind: 'step',
      text: 'and upgrade the NVIDIA driver to one that supports the CUDA version of the toolkit (or of torch.version.cuda)',
    },
  ],
  alternative:
    "Or build with a toolkit no newer than the driver supports: point CUDA_HOME (and Triton's TRITON_PTXAS_PATH) " +
    'at an older CUDA, or install the engine built for an older CUDA.',
  references: [
    'https://github.com/vllm-project/vllm/pull/28305',
    'https://github.com/vllm-project/vllm/issues/31700',
  ],
});
