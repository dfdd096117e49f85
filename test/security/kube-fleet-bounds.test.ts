import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin, tempDir } from './helpers.js';

// Issue 31, item 4 (the fleet): 50 MB of events per pod took 757 MB in a fleet of 8, and one `kubectl logs`
// that never answers held the whole report for the 5-minute timeout. The real CLI against a kubectl
// stand-in that replays the rollout fixture, with one pod's log a FIFO no one writes (kubectl waiting on a
// kubelet that does not answer) and another pod's events over the cap.

const FIXTURE = resolve(import.meta.dirname, '../fixtures/fleet/rollout-8-pods');
const STUCK = 'vllm-qwen3-6d8f9c7b54-2x7kq';
const NOISY = 'vllm-qwen3-6d8f9c7b54-5mvbn';

/** kubectl replaying FLEET_DIR: pods.json, events/POD.json, logs/POD.previous.log. */
const KUBECTL = `#!/bin/sh
case "$1" in
  get)
    case "$2" in
      pods) cat "$FLEET_DIR/pods.json" ;;
      events)
        for a in "$@"; do case "$a" in --field-selector=involvedObject.name=*) pod="\${a#--field-selector=involvedObject.name=}" ;; esac; done
        cat "$FLEET_DIR/events/$pod.json" ;;
    esac ;;
  logs) cat "$FLEET_DIR/logs/$2.previous.log" ;;
esac
`;

/** The fixture's first three pods in a folder of the test's own, with the stand-in on PATH. */
function writeFleet(): { dir: string; env: Record<string, string> } {
  const dir = tempDir();
  cpSync(FIXTURE, dir, { recursive: true });
  const pods = JSON.parse(readFileSync(join(dir, 'pods.json'), 'utf8')) as { items: unknown[] };
  pods.items = pods.items.slice(0, 3);
  writeFileSync(join(dir, 'pods.json'), JSON.stringify(pods));
  writeFileSync(join(dir, 'kubectl'), KUBECTL, { mode: 0o755 });
  return { dir, env: { PATH: `${dir}:/usr/bin:/bin`, FLEET_DIR: dir, HOME: dir } };
}

/** A List of `count` distinct events for `pod`, one Warning in ten. */
function eventList(pod: string, count: number): string {
  const items = Array.from({ length: count }, (_, i) => ({
    kind: 'Event',
    type: i % 10 === 0 ? 'Warning' : 'Normal',
    reason: `Reason${i}`,
    message: `distinct event ${i} ${'x'.repeat(200)}`,
    count: 1,
    involvedObject: { kind: 'Pod', name: pod },
  }));
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
}

interface FleetJson {
  members: { name: string; error: string | null; events: unknown[]; eventsNote?: string }[];
}

describe('a fleet report is bounded by what one pod can do', () => {
  it('a stuck kubectl logs is stopped after 30 s of silence; the other pods are reported', async () => {
    const { dir, env } = writeFleet();
    const log = join(dir, 'logs', `${STUCK}.previous.log`);
    rmSync(log);
    execFileSync('mkfifo', [log]);
    const started = Date.now();
    const result = await runBin(
      ['diagnose', '--kube', '-l', 'app=vllm-qwen3', '-n', 'llm', '--format', 'json'],
      {
        env,
        timeoutMs: 120_000,
      },
    );
    expect(Date.now() - started).toBeLessThan(90_000);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as FleetJson;
    const stuck = report.members.find((member) => member.name === STUCK);
    expect(stuck?.error).toMatch(/^kubectl logs printed nothing for 30 s and was stopped/);
    expect(report.members.filter((member) => member.error === null)).toHaveLength(2);
  }, 150_000);

  it('events over the 4 MB cap are not read, and the report says so; under it, 256 are kept', async () => {
    const { dir, env } = writeFleet();
    writeFileSync(join(dir, 'events', `${NOISY}.json`), eventList(NOISY, 25_000));
    writeFileSync(join(dir, 'events', `${STUCK}.json`), eventList(STUCK, 2_000));
    const result = await runBin(
      ['diagnose', '--kube', '-l', 'app=vllm-qwen3', '-n', 'llm', '--format', 'json'],
      {
        env,
      },
    );
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as FleetJson;
    const noisy = report.members.find((member) => member.name === NOISY);
    expect(noisy?.events).toEqual([]);
    expect(noisy?.eventsNote).toBe(
      'events not read: kubectl get events printed more than 4 MB of JSON; a pod has tens of events, so these are not read (kubectl describe pod shows them)',
    );
    const many = report.members.find((member) => member.name === STUCK);
    expect(many?.events).toHaveLength(256);
    expect(many?.eventsNote).toBe('1744 of its 2000 events left out (Warnings kept first)');
    // All 200 Warnings are among the 256 kept.
    expect((many?.events as { type: string }[]).filter((event) => event.type === 'Warning')).toHaveLength(
      200,
    );
  });
});
