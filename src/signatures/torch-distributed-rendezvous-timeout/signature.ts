import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'torch-distributed-rendezvous-timeout',
  title: 'ranks never met at the torch.distributed rendezvous (TCPStore timeout)',
  category: 'distributed-nccl',
  engines: ['vllm', 'sglang', 'trtllm', 'lmdeploy', 'tgi'],
  keywords: ['waiting for clients', 'the client socket has timed out'],
  match: {
    message:
      /Timed out after (?<secs>\d+) seconds waiting for clients\. (?<joined>\d+\/\d+) clients joined|The client socket has timed out after \d+ ?m?s while trying to connect to \(?(?<addr>[^)\s]+(?:, ?\d+)?)\)?/,
  },
  explanation:
    'Before NCCL starts, every rank connects to a TCP key-value store hosted by rank 0 (MASTER_ADDR:MASTER_PORT, or ' +
    "the engine's dist-init address). Some ranks never arrived within the timeout: the other node's process crashed " +
    'or was never started, or it tries an address or port it cannot reach (wrong interface, firewall, a container ' +
    'network that is not the host network).',
  fix:
    'Look at the log of the rank that did not join first (its own error is the cause); otherwise make the rendezvous ' +
    'address reachable from every node (`nc -vz <master-ip> <port>`), e.g. `--dist-init-addr <head-ip>:<port>` / ' +
    '`MASTER_ADDR`, `VLLM_HOST_IP`, `GLOO_SOCKET_IFNAME=<iface>` and `NCCL_SOCKET_IFNAME=<iface>`, with `--network host`.',
  action: [
    {
      kind: 'step',
      text: 'Look at the log of the rank that did not join first (its own error is the cause); otherwise make the rendezvous address reachable from every node (nc -vz MASTER_IP PORT): MASTER_ADDR / VLLM_HOST_IP / the distributed init address, the host network, and the interface on every node (eth0 here for yours):',
    },
    { kind: 'environment-variable', name: 'GLOO_SOCKET_IFNAME', value: 'eth0' },
    { kind: 'environment-variable', name: 'NCCL_SOCKET_IFNAME', value: 'eth0' },
  ],
  alternative:
    'Start all nodes within the timeout window and with identical world size, tensor and pipeline parallel settings; ' +
    'a mismatch leaves some ranks waiting for peers that never come.',
  references: [
    'https://github.com/pytorch/pytorch/blob/main/torch/csrc/distributed/c10d/TCPStore.cpp',
    'https://github.com/pytorch/pytorch/blob/main/torch/csrc/distributed/c10d/socket.cpp',
  ],
});
