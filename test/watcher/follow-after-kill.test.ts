import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sleep, startReceiver, startServer, startVigil, tempDir, waitFor } from './helpers.js';

// The watcher killed with SIGKILL in the middle of an incident (no handler runs, nothing is flushed): the
// next watcher resumes from the state folder, counts the crash it missed into the open incident, sends
// nothing it had sent, and resolves the incident once.

interface SavedState {
  incidents: {
    id: string;
    status: string;
    count: number;
    delivered: Record<string, { firing: boolean; resolved: boolean }>;
  }[];
}

const readState = (state: string): SavedState =>
  JSON.parse(readFileSync(join(state, 'state.json'), 'utf8')) as SavedState;

describe('vigil watch --follow killed with SIGKILL mid-incident', () => {
  it('restarts from its state folder and does not alert again for what it sent', async () => {
    const dir = tempDir();
    const log = join(dir, 'server.log');
    const state = join(dir, 'state');
    writeFileSync(log, '');
    const webhook = await startReceiver();
    const args = ['watch', '--follow', '--log', log, '--state-dir', state, '--webhook', webhook.url];

    const first = startVigil(args);
    await waitFor('the watcher', () => first.output().stderr.includes('until stopped'));
    await startServer(log, 'startup-crash').exited;
    // Killed once the firing is sent and its acknowledgement saved: a kill before that would rightly send
    // it again (the receiver's word is what counts).
    await waitFor('the acknowledgement saved', () => {
      try {
        return readState(state).incidents[0]?.delivered.webhook?.firing === true;
      } catch {
        return false;
      }
    });
    const killed = new Promise((resolve) => first.child.once('exit', (_code, signal) => resolve(signal)));
    first.child.kill('SIGKILL');
    expect(await killed).toBe('SIGKILL');

    // The server crashes again while no watcher runs, then a watcher starts again, then the server recovers.
    await startServer(log, 'startup-crash').exited;
    const second = startVigil(args);
    const said = (text: string) => () => second.output().stderr.includes(text);
    await waitFor('the missed crash counted', said('failed again with the same cause (2 times'));
    const serving = startServer(log, 'serve');
    await waitFor('the resolution', () => webhook.received.length === 2);
    await sleep(1500);
    serving.child.kill('SIGTERM');
    await serving.exited;
    expect(await second.stop()).toBe(0);

    const bodies = webhook.received.map(
      (item) => JSON.parse(item.body) as { kind: string; incident: { id: string; count: number } },
    );
    expect(bodies.map((body) => [body.kind, body.incident.count])).toEqual([
      ['firing', 1],
      ['resolved', 2],
    ]);
    expect(bodies[0]?.incident.id).toBe(bodies[1]?.incident.id);
    expect(second.output().stderr).not.toContain('sent firing');
    const saved = readState(state);
    expect(saved.incidents.map((incident) => [incident.status, incident.count])).toEqual([['resolved', 2]]);
    // Every file of the state folder is whole: no temporary file left beside them by the kill.
    const id = saved.incidents[0]?.id ?? '';
    expect(readdirSync(state).sort()).toEqual([id, 'state.json'].sort());
    expect(readdirSync(join(state, id)).sort()).toEqual(['diagnosis.json', 'excerpt.log', 'page.html']);
    JSON.parse(readFileSync(join(state, id, 'diagnosis.json'), 'utf8'));
  }, 90_000);
});
