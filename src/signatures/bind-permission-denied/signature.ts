import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'bind-permission-denied',
  title: 'not allowed to bind the port (privileged port or policy)',
  category: 'network-port',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy', 'trtllm', 'llamacpp', 'ollama'],
  keywords: ['attempting to bind', 'bind: permission denied', 'errno: 13', 'bind: an attempt was made'],
  match: {
    message:
      /error while attempting to bind on address \((?<addr>[^)\n]+)\): (?:\[errno 13\] )?permission denied|listen tcp (?<listen>\S+): bind: (?:permission denied|An attempt was made to access a socket)|failed to bind[^\n]*errno: 13 - Permission denied/i,
  },
  explanation:
    'The server was refused the right to listen on that port. Ports below 1024 need root or the ' +
    'CAP_NET_BIND_SERVICE capability, which non-root containers (OpenShift, rootless Docker, Kubernetes with ' +
    'runAsNonRoot) do not have; on Windows the port may sit in a range reserved by Hyper-V or WSL.',
  fix: 'Serve on an unprivileged port (e.g. `--port 8000`) and map it outside (`-p 80:8000` or a Service targetPort), or grant the binary CAP_NET_BIND_SERVICE.',
  action: [
    { kind: 'engine-option', option: 'port', value: '8000' },
    {
      kind: 'step',
      text: 'and map it outside (a published port or a Service targetPort), or grant the binary CAP_NET_BIND_SERVICE',
    },
  ],
  alternative:
    'On Windows list reserved ranges with `netsh interface ipv4 show excludedportrange protocol=tcp` and pick a port ' +
    'outside them; on SELinux hosts check the audit log for a port-type denial.',
  references: [
    'https://github.com/encode/uvicorn/blob/master/uvicorn/server.py',
    'https://github.com/ollama/ollama/issues/3112',
  ],
});
