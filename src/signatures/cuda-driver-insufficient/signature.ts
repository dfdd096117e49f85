import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'cuda-driver-insufficient',
  title: 'CUDA runtime newer than the NVIDIA driver',
  category: 'driver-cuda-mismatch',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy', 'llamacpp', 'ollama'],
  keywords: ['driver version is insufficient for cuda runtime'],
  match: {
    message: /CUDA driver version is insufficient for CUDA runtime version/,
  },
  explanation:
    'The program was built with a CUDA runtime newer than the CUDA version the installed NVIDIA driver supports ' +
    '(cudaErrorInsufficientDriver). Every CUDA call fails from the first one. It happens with a container or wheel ' +
    'built for a new CUDA (e.g. 12.8) on a host whose driver is older, or when an old libcuda from another ' +
    'installation is found first.',
  fix: 'Compare nvidia-smi (top right: the highest CUDA the driver supports) with the CUDA the program was built for, and upgrade the NVIDIA driver on the host',
  action: [
    {
      kind: 'step',
      text: 'Compare the highest CUDA the driver supports (top right of this) with the CUDA the program was built for:',
    },
    { kind: 'command', argv: ['nvidia-smi'], where: 'host' },
    { kind: 'step', text: 'and upgrade the NVIDIA driver on the host' },
  ],
  alternative:
    'Or use an image or build made for a CUDA version your driver supports (e.g. a cu121 or cu118 tag or wheel, ' +
    'or llama.cpp built with the older toolkit).',
  references: ['https://github.com/ggml-org/llama.cpp/issues/17542'],
});
