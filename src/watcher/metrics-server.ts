import { createServer, type Server } from 'node:http';
import { UsageError } from '../errors.js';

/** `127.0.0.1:9464`, `[::1]:9464`, `:9464` (all addresses) as host and port; one line and exit 2 if not. */
export function parseListen(text: string): { host: string; port: number } {
  const match = /^(?:\[([0-9a-fA-F:]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(text);
  const port = Number(match?.[3]);
  if (match === null || !Number.isInteger(port) || port > 65535)
    throw new UsageError(`--metrics-listen: give HOST:PORT, e.g. 127.0.0.1:9464 (not ${text})`);
  return { host: match[1] ?? (match[2] === '' ? '0.0.0.0' : (match[2] ?? '0.0.0.0')), port };
}

/** Serves `/metrics` (Prometheus' text format) from `render`; anything else is a 404. */
export async function serveMetrics(
  listen: { host: string; port: number },
  render: () => string,
): Promise<{ server: Server; close(): Promise<void>; port: number }> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found: try /metrics\n');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }).end(render());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new UsageError(`--metrics-listen ${listen.host}:${listen.port}: ${error.code ?? error.message}`, {
          cause: error,
        }),
      ),
    );
    server.listen(listen.port, listen.host, () => resolve());
  });
  const address = server.address();
  return {
    server,
    port: typeof address === 'object' && address !== null ? address.port : listen.port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
