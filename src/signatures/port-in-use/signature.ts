import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'port-in-use',
  title: 'Port already in use',
  category: 'network-port',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy', 'trtllm'],
  keywords: ['address already in use', 'eaddrinuse', 'errno 98', 'errno 10048'],
  match: {
    // The port, where the line names it (asyncio: error while attempting to bind on address ('0.0.0.0', 8000)).
    message:
      /(?:bind on address \('[^'\n]*', (?<port>\d+)\): )?(?<!bind: )(?:address already in use|EADDRINUSE|Errno 10048)/i,
  },
  explanation:
    'The server (or one of its internal sockets: the HTTP API, the torch.distributed rendezvous port, a ZMQ channel) ' +
    'could not bind because another process already listens on that address. Usually it is an earlier instance that ' +
    'is still running or has not released the port yet, another service on the same port, or two servers on one host ' +
    'started with the same ports.',
  fix:
    'Find the owner with `ss -ltnp | grep :<port>` (or `lsof -i :<port>`) and stop it, or start this server on a free ' +
    'port: vLLM / SGLang `--port 8001`, TGI `--port 8081` (and `--master-port` for its shards).',
  action: [{ kind: 'free-port', port: '{port}' }],
  alternative:
    'For the torch.distributed port (MASTER_PORT, 29500 by default) set another one, e.g. `MASTER_PORT=29501`, or ' +
    'vLLM `VLLM_PORT`; when several servers share a host, give each its own set of ports.',
  references: ['https://github.com/vllm-project/vllm/issues/8204'],
});
