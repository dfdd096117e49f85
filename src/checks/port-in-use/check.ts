import { defineCheck } from '../define-check.js';

/** vLLM binds its port before the engine starts, so a bound port ends the start at once, in a loop under systemd. */
export default defineCheck({
  id: 'port-in-use',
  severity: 'error',
  title: 'Port already in use',
  run: ({ port }) => {
    if (port === null || port.state === 'free') return [];
    if (port.state === 'denied') {
      return [
        {
          severity: 'warning',
          title: 'Port needs privileges',
          detail: `Binding port ${port.port} on ${port.address ?? 'this host'} was refused (EACCES); ports below 1024 need root or CAP_NET_BIND_SERVICE.`,
          fix: 'use a port above 1024 (--port 8000)',
          packages: [],
        },
      ];
    }
    return [
      {
        detail: `Port ${port.port} is already bound on ${port.address ?? 'this host'}; the server will stop with "OSError: [Errno 98] Address already in use".`,
        fix: `find the holder with: ss -ltnp 'sport = :${port.port}' (then stop it), or serve on another --port`,
        packages: [],
      },
    ];
  },
});
