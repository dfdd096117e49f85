import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'llamacpp-bind-failed',
  title: 'llama-server could not bind its HTTP port',
  category: 'network-port',
  engines: ['llamacpp'],
  keywords: ["couldn't bind http server socket"],
  match: {
    message: /couldn't bind HTTP server socket, hostname: (?<host>[^,\s]+), port: (?<port>\d+)/,
  },
  explanation:
    'llama-server could not listen on {host}:{port}. The message does not give the reason; nearly always another ' +
    'process (a second llama-server, a GUI launcher that already started one, another web service) holds the port, ' +
    "less often the host address is not one of this machine's or the port is reserved.",
  fix:
    'See who listens with `ss -ltnp | grep :{port}` (Windows: `netstat -ano | findstr :{port}`) and stop it, or start ' +
    'llama-server on another port with `--port 8081`.',
  action: [{ kind: 'free-port', port: '{port}' }],
  alternative: 'If {host} is not an address of this machine, use `--host 127.0.0.1` or `--host 0.0.0.0`.',
  references: ['https://github.com/PiDanShouRouZhouXD/Sakura_Launcher_GUI/issues/71'],
});
