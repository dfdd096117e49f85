import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'nccl-system-error',
  title: 'NCCL failed to set up communication between GPUs',
  category: 'distributed-nccl',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy', 'trtllm'],
  keywords: [
    'nccl error',
    'ncclsystemerror',
    'ncclinternalerror',
    'ncclremoteerror',
    'ncclunhandledcudaerror',
  ],
  match: {
    message:
      /NCCL error[^\n]*?(?:unhandled system error|internal error|remote process exited or there was a network error|unhandled cuda error)|nccl(?:System|Internal|Remote|UnhandledCuda)Error/i,
  },
  explanation:
    'Creating or using the NCCL communicator between the tensor- or pipeline-parallel ranks failed inside NCCL itself. ' +
    'A "system error" means a system call or transport NCCL depends on failed: shared memory (/dev/shm) too small in a ' +
    'container, a network interface it cannot use between nodes, InfiniBand/RDMA set-up, or GPU peer-to-peer access ' +
    "the platform does not allow. The generic message hides which; NCCL's own log names it.",
  fix:
    'Rerun with `NCCL_DEBUG=INFO` and read the `NCCL WARN` lines just before the error. Typical fixes: start the container ' +
    'with `--ipc=host` or `--shm-size=16g`; on multi-node set `NCCL_SOCKET_IFNAME=<interface>` (e.g. eth0) on every ' +
    'node; `NCCL_IB_DISABLE=1` if there is no working InfiniBand.',
  action: [
    {
      kind: 'step',
      text: 'Rerun with NCCL’s own report and read the NCCL WARN lines just before the error:',
    },
    { kind: 'environment-variable', name: 'NCCL_DEBUG', value: 'INFO' },
    { kind: 'step', text: 'Typical fixes: more shared memory for the server,' },
    { kind: 'shared-memory', size: '16g' },
    {
      kind: 'step',
      text: 'on multi-node NCCL_SOCKET_IFNAME=<interface> on every node; NCCL_IB_DISABLE=1 if there is no working InfiniBand',
    },
  ],
  alternative:
    'If P2P is the problem (VMs, consumer GPUs, IOMMU on), try `NCCL_P2P_DISABLE=1`; and make sure every node runs the ' +
    'same NCCL and driver versions.',
  references: [
    'https://github.com/vllm-project/vllm/issues/16707',
    'https://github.com/vllm-project/production-stack/issues/44',
  ],
  // The generic NCCL error is what the caller sees; a NCCL WARN line or a more specific error nearby names the cause.
  weight: 0.5,
});
