import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'dev-shm-too-small',
  title: 'Shared memory (/dev/shm) too small for the container',
  category: 'distributed-nccl',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy', 'trtllm'],
  keywords: ['/torch_', 'shared memory', 'bus error', 'signal 7', 'sigbus', '/dev/shm'],
  match: {
    message:
      /unable to write to file <\/torch_[^>\n]*>|Error while creating shared memory segment|failed to extend \/dev\/shm\/\S+ to \d+ bytes|unable to allocate shared memory|insufficient shared memory|out of shared memory|signaled to shutdown with signal 7\b|\bBus error\b|No space left on device[^\n]*\/dev\/shm/,
  },
  explanation:
    'The worker processes exchange tensors and NCCL buffers through shared memory in /dev/shm. Docker gives a ' +
    'container only 64 MB there by default (Kubernetes pods similar), so the first large write fails: PyTorch reports ' +
    '"No space left on device" for a /torch_* file, NCCL cannot create its segment, or the process dies with SIGBUS ' +
    '(signal 7, "Bus error").',
  fix:
    'Give the container real shared memory: `docker run --ipc=host ...` or `--shm-size=16g`; in Kubernetes mount an ' +
    '`emptyDir` with `medium: Memory` at /dev/shm.',
  action: [
    { kind: 'step', text: 'Give the server real shared memory:' },
    { kind: 'shared-memory', size: '16g' },
  ],
  alternative:
    "If the container cannot be changed, `NCCL_SHM_DISABLE=1` avoids NCCL's segment (at some speed cost); it does not " +
    "help PyTorch's own tensor sharing.",
  references: [
    'https://github.com/vllm-project/production-stack/issues/44',
    'https://github.com/NVIDIA/Megatron-LM/issues/878',
    'https://github.com/IBM/text-generation-inference/pull/34',
  ],
});
