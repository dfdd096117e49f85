import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'nccl-network-interface',
  title: 'NCCL could not connect ranks over the network',
  category: 'distributed-nccl',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy'],
  keywords: ['nccl warn'],
  match: {
    // Not an InfiniBand device's own event (`NET/IB : mlx5_0:1 async fatal event: local catastrophic error`,
    // from NCCL's async thread): the HCA or its driver failed, whatever interface NCCL was told to use.
    message:
      /NCCL WARN (?![^\n]*\basync (?:fatal )?event\b)(?:Bootstrap|NET\/\w+|Net|socket\w*|Call to connect)\b[^\n]*?(?:no socket interface|No usable listening interface|failed|Connection|error|timed out|unreachable)/i,
  },
  explanation:
    "NCCL's bootstrap or network transport could not connect the ranks: it found no usable network interface, or " +
    'connections between nodes failed or were reset. On multi-node setups NCCL often picks the wrong interface (a ' +
    'docker bridge, a loopback or a management NIC), or a firewall blocks the ports it opens; with InfiniBand, the ' +
    'IB devices or their permissions inside the container are missing.',
  fix:
    'Tell NCCL which interface connects the nodes, on every node: `NCCL_SOCKET_IFNAME=eth0` (and `GLOO_SOCKET_IFNAME=eth0`); ' +
    'use `--network host` for the containers and open the ports between the nodes.',
  action: [
    {
      kind: 'step',
      text: 'Tell NCCL (and Gloo) which interface connects the nodes, on every node (ip -br addr lists them; eth0 here for yours):',
    },
    { kind: 'environment-variable', name: 'NCCL_SOCKET_IFNAME', value: 'eth0' },
    { kind: 'environment-variable', name: 'GLOO_SOCKET_IFNAME', value: 'eth0' },
    { kind: 'step', text: 'run the containers on the host network and open the ports between the nodes' },
  ],
  alternative:
    'Without working InfiniBand set `NCCL_IB_DISABLE=1`; with it, pass the devices into the container (`--device ' +
    '/dev/infiniband`, `--cap-add IPC_LOCK`) and check `NCCL_IB_HCA`. `NCCL_DEBUG=INFO` shows the interface chosen.',
  references: [
    'https://github.com/vllm-project/vllm/issues/16707',
    'https://github.com/NVIDIA/TensorRT-LLM/issues/1498',
  ],
});
