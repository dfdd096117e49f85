import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'cuda-invalid-device-ordinal',
  title: 'a process asked for a GPU index that does not exist',
  category: 'config-invalid',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy', 'llamacpp', 'ollama'],
  keywords: ['invalid device ordinal', 'cudaerrorinvaliddevice'],
  match: {
    message: /invalid device ordinal|cudaErrorInvalidDevice\b/,
  },
  explanation:
    'CUDA numbers the GPUs a process can see from 0, and this process selected a device number at or beyond that ' +
    'count. Usually the parallel size (tensor, pipeline, data or expert parallel ranks on this node) is larger than ' +
    'the number of GPUs left visible by CUDA_VISIBLE_DEVICES or the container, or --base-gpu-id / --gpu-id / ' +
    '--main-gpu point past them.',
  fix: 'Compare `nvidia-smi -L` inside the container and `echo $CUDA_VISIBLE_DEVICES` with the parallel size; lower `--tp` / `--tensor-parallel-size` (and `--dp`, `--pp`) to the number of visible GPUs, or expose more of them (`--gpus all`).',
  action: [
    {
      kind: 'step',
      text: 'Compare `nvidia-smi -L` where the server runs with the parallel size, and lower it to the GPUs it sees (or expose more):',
    },
    { kind: 'engine-option', option: 'tensor-parallel-size', value: '1' },
  ],
  alternative:
    'If the GPU count is right, a GPU may have fallen off the bus (`nvidia-smi` shows fewer devices than installed, ' +
    'Xid 79 in dmesg): reset or reboot the node.',
  references: [
    'https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html',
    'https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#cuda-environment-variables',
  ],
});
