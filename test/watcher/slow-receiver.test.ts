import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { freePort, startReceiver, startServer, startVigil, tempDir, waitFor } from './helpers.js';

// A receiver that takes a request and answers only after a long delay (a hung proxy, an overloaded
// Alertmanager) holds up nothing: the watch goes on reading, the other receivers are told at once,
// /metrics answers, and SIGTERM still ends the watcher within its grace.

const SLOW_MS = 120_000;

async function startSlowReceiver(): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    requests += 1;
    request.resume();
    setTimeout(() => response.writeHead(200).end('ok'), SLOW_MS).unref();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { url: `http://127.0.0.1:${port}/hook`, requests: () => requests };
}

describe('vigil watch --follow with a receiver that answers after a long delay', () => {
  it('never blocks following, the other receivers, /metrics or the stop', async () => {
    const dir = tempDir();
    const log = join(dir, 'server.log');
    writeFileSync(log, '');
    const slow = await startSlowReceiver();
    const slack = await startReceiver();
    const metricsPort = await freePort();
    const vigil = startVigil([
      'watch',
      '--follow',
      '--log',
      log,
      '--state-dir',
      join(dir, 'state'),
      '--webhook',
      slow.url,
      '--slack-webhook',
      slack.url,
      '--metrics-listen',
      `127.0.0.1:${metricsPort}`,
    ]);
    await waitFor('the watcher', () => vigil.output().stderr.includes('until stopped'));

    await startServer(log, 'startup-crash').exited;
    await waitFor('the incident at the fast receiver', () => slack.received.length === 1);
    expect(slow.requests()).toBe(1);

    // The slow receiver still holds the firing; the next start is followed and resolves the incident.
    const serving = startServer(log, 'serve');
    await waitFor('the resolution at the fast receiver', () => slack.received.length === 2);
    expect(vigil.output().stderr).toMatch(/log:\S+: ready after/);
    const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, {
      signal: AbortSignal.timeout(2000),
    });
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/^vigil_incidents_open\{target="log:[^"]+"\} 0$/m);
    serving.child.kill('SIGTERM');
    await serving.exited;

    // The stop waits its grace (3 s) for the slow receiver, then aborts the request in flight rather than
    // wait out its 10 s timeout (it once took 10.3 s here); the firing it never acknowledged stays in the
    // state folder for the next watcher.
    const stopping = Date.now();
    expect(await vigil.stop()).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(9000);
    expect(slow.requests()).toBe(1);
  }, 60_000);
});
