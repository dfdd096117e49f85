import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'gpu-p2p-failure',
  title: 'GPU peer-to-peer access failed (custom all-reduce / NCCL P2P)',
  category: 'distributed-nccl',
  engines: ['vllm', 'sglang', 'trtllm', 'lmdeploy'],
  keywords: ['peer access', 'peer mapping', 'custom_all_reduce', 'p2p'],
  match: {
    message:
      /^(?![^\n]*To silence this warning)(?:[^\n]*custom_all_reduce\.cuh:\d+ '[^'\n]+'|[^\n]*peer access is not supported between these two devices|[^\n]*peer mapping resources exhausted|[^\n]*NCCL WARN [^\n]*P2P)/,
  },
  explanation:
    "Tensor parallelism tried to let the GPUs read each other's memory directly (CUDA peer-to-peer), which the engine's " +
    "custom all-reduce kernel and NCCL's P2P transport rely on, and the platform refused. Consumer GPUs without NVLink " +
    '(e.g. RTX 4090), GPUs passed into a VM, or a PCIe topology with IOMMU/ACS enabled often do not allow P2P.',
  fix:
    'Turn the custom all-reduce off: vLLM `--disable-custom-all-reduce`, SGLang `--disable-custom-all-reduce`, ' +
    'TensorRT-LLM build without `--use_custom_all_reduce`.',
  action: [
    { kind: 'step', text: 'Turn the custom all-reduce off (TensorRT-LLM: build the engine without it):' },
    { kind: 'engine-option', option: 'disable-custom-all-reduce' },
  ],
  alternative:
    'If NCCL itself fails on P2P, set `NCCL_P2P_DISABLE=1` (slower, goes through host memory); check `nvidia-smi topo -m` ' +
    'and disable IOMMU/ACS on bare metal if P2P should work.',
  references: [
    'https://github.com/sgl-project/sglang/issues/552',
    'https://github.com/sgl-project/sglang/issues/4814',
    'https://github.com/NVIDIA/TensorRT-LLM/issues/1499',
  ],
});
