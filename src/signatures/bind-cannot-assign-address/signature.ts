import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'bind-cannot-assign-address',
  title: 'cannot bind: the host address is not on this machine',
  category: 'network-port',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy', 'trtllm', 'llamacpp', 'ollama'],
  keywords: ['cannot assign requested address', 'errno 99', 'errno: 99'],
  match: {
    // Binding only: a failed outgoing connect (NCCL socketStartConnect, gloo connectFullMesh) is a network fault.
    message:
      /^(?![^\n]*(?:NCCL|[Cc]onnect))[^\n]*?(?:[Cc]annot assign requested address|\[Errno 99\]|errno: 99\b)/,
  },
  explanation:
    'A socket could not bind because the IP address it was told to listen on does not belong to any ' +
    'network interface of this host or container. It usually comes from a --host, MASTER_ADDR, VLLM_HOST_IP or ' +
    'dist-init address copied from another machine, or from a container whose network namespace lacks that IP.',
  fix: 'Listen on an address this host owns: `--host 0.0.0.0` for the API server, and set MASTER_ADDR / VLLM_HOST_IP / --dist-init-addr to an IP that `ip -br addr` lists on this node.',
  action: [
    { kind: 'step', text: 'Listen on an address this host owns:' },
    { kind: 'engine-option', option: 'host', value: '0.0.0.0' },
    {
      kind: 'step',
      text: 'and set MASTER_ADDR / VLLM_HOST_IP / the distributed init address to an IP that this lists on the node:',
    },
    { kind: 'command', argv: ['ip', '-br', 'addr'], where: 'server' },
  ],
  alternative:
    'In Docker use `--network host` or publish the port with `-p` and bind to 0.0.0.0 inside the container; for IPv6 ' +
    'addresses check that IPv6 is enabled in the container.',
  references: [
    'https://github.com/encode/uvicorn/blob/master/uvicorn/server.py',
    'https://github.com/pytorch/pytorch/blob/main/torch/csrc/distributed/c10d/socket.cpp',
  ],
});
