import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'gpu-arch-not-in-torch-build',
  title: "GPU architecture missing from the PyTorch build's list",
  category: 'gpu-arch-unsupported',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy'],
  keywords: ['no kernel image is available', 'not compatible with the current pytorch installation'],
  match: {
    message: /no kernel image is available|not compatible with the current PyTorch installation/,
    context: /with CUDA capability (?<arch>sm_\d+) is not compatible with the current PyTorch installation/,
  },
  blame: 'context',
  explanation:
    'The installed PyTorch was compiled for a list of GPU architectures that does not include this GPU ({arch}), ' +
    'so its kernels cannot run here: torch warns at start-up and the first CUDA kernel then fails with "no kernel ' +
    'image". New GPUs (Blackwell: sm_100, sm_120) need a torch built with CUDA 12.8 or newer; very old ones were ' +
    'dropped from recent builds.',
  fix: 'pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/cu128 (for Blackwell {arch}; then an engine release built against that torch, e.g. a vLLM or SGLang wheel or image for CUDA 12.8)',
  action: [
    {
      kind: 'install',
      requirements: ['torch'],
      options: ['--force-reinstall'],
      index: 'https://download.pytorch.org/whl/cu128',
    },
    {
      kind: 'step',
      text: 'then an engine release built against that torch for Blackwell {arch} (a wheel or image for CUDA 12.8)',
    },
  ],
  alternative:
    'For a GPU older than the list, install the last torch (and engine) release that still supports {arch}, or ' +
    'build torch with TORCH_CUDA_ARCH_LIST set to it.',
  references: ['https://discuss.vllm.ai/t/vllm-on-rtx5090-working-gpu-setup-with-torch-2-9-0-cu128/1492'],
});
