import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startReceiver, startServer, startVigil, tempDir, waitFor } from './helpers.js';

// A receiver that stays down past the watcher's own life loses nothing: the incident waits in the state
// folder, unacknowledged, and the next watcher sends it, once.

describe('a receiver down while the watcher runs', () => {
  it('keeps the incident and sends it when a watcher starts again and the receiver is back', async () => {
    const dir = tempDir();
    const log = join(dir, 'server.log');
    writeFileSync(log, '');
    const webhook = await startReceiver({ failNext: Number.MAX_SAFE_INTEGER });
    const args = [
      'watch',
      '--follow',
      '--log',
      log,
      '--state-dir',
      join(dir, 'state'),
      '--webhook',
      webhook.url,
    ];
    const first = startVigil(args);
    await waitFor('the watcher', () => first.output().stderr.includes('until stopped'));
    await startServer(log, 'startup-crash').exited;
    await waitFor('a failed delivery', () => webhook.failed >= 2);
    expect(await first.stop()).toBe(0);
    expect(first.output().stderr).toMatch(
      /warning: webhook did not take incident \S+ \(attempt 2\): answered 500/,
    );
    expect(webhook.received).toHaveLength(0);

    webhook.failNext = 0;
    const second = startVigil(args);
    await waitFor('the incident sent by the next watcher', () => webhook.received.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await second.stop()).toBe(0);
    expect(webhook.received).toHaveLength(1);
    const body = JSON.parse(webhook.received[0]?.body ?? '{}') as {
      kind: string;
      incident: { category: string };
    };
    expect(body).toMatchObject({ kind: 'firing', incident: { category: 'kv-cache-insufficient' } });
  }, 60_000);
});
