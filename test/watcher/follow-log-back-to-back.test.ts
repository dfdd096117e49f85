import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startReceiver, startVigil, tempDir, waitFor } from './helpers.js';

// A restart loop that wastes no time: the server dies while serving and the next start's first line
// follows its last at once, before any silence could end the start. The death is still an incident, and
// the next start's ready resolves it (the bench found each such death taken for a stop that was asked).

const logOf = (name: string): string =>
  readFileSync(fileURLToPath(new URL(`../supervision/fixtures/logs/${name}.log`, import.meta.url)), 'utf8');

describe('vigil watch --follow --log, a death while serving with the next start right behind it', () => {
  it('is an incident, resolved by that next start', async () => {
    const dir = tempDir();
    const log = join(dir, 'server.log');
    const healthy = logOf('vllm-healthy-start');
    writeFileSync(log, '');
    const webhook = await startReceiver();
    const vigil = startVigil(
      ['watch', '--follow', '--log', log, '--state-dir', join(dir, 'state')].concat([
        '--webhook',
        webhook.url,
      ]),
    );
    await waitFor('the watcher', () => vigil.output().stderr.includes('until stopped'));
    // One write: the three parts reach the watcher together.
    appendFileSync(log, healthy + logOf('vllm-engine-dead-while-serving') + healthy);
    await waitFor('the resolution', () => webhook.received.length === 2).catch((error: unknown) => {
      throw new Error(`${String(error)}; the watcher said:\n${vigil.output().stderr}`);
    });
    expect(await vigil.stop()).toBe(0);
    const bodies = webhook.received.map(
      (item) => JSON.parse(item.body) as { kind: string; incident: { signature: string; phase: string } },
    );
    expect(bodies.map((body) => body.kind)).toEqual(['firing', 'resolved']);
    expect(bodies[0]?.incident.signature).toBe(bodies[1]?.incident.signature);
    expect(vigil.output().stderr).not.toContain('stopped as asked (no notification)');
  }, 60_000);
});
