import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ALERTMANAGER, startAlertmanager } from './alertmanager.js';
import {
  BIN,
  findProgram,
  freePort,
  sleep,
  startReceiver,
  startServer,
  startVigil,
  tempDir,
  waitFor,
} from './helpers.js';

// The driving test: a real server process restarted by the test as a restart loop would
// (`server >> server.log`), followed by `vigil watch --follow --log` with real receivers on 127.0.0.1:
// a webhook that is down at first, a Slack-format hook, an --on-failure program, /metrics, and Debian's
// real Alertmanager where it is installed.

const HOOK = fileURLToPath(new URL('fixtures/record-hook.mjs', import.meta.url));
const PROMTOOL = findProgram('promtool');

interface WebhookBody {
  schema: string;
  kind: 'firing' | 'resolved';
  incident: { id: string; category: string; signature: string; cause: string; phase: string; count: number };
  page: string;
  diagnosis: { verdict: string; signature: { id: string } | null } | null;
}

interface AlertmanagerMessage {
  status: 'firing' | 'resolved';
  alerts: { status: string; labels: Record<string, string>; annotations: Record<string, string> }[];
}

describe('vigil watch --follow --log, a restarting server, real receivers', () => {
  it('opens one incident per cause, resolves it on recovery, tells every receiver once, and resumes without telling again', async () => {
    if (ALERTMANAGER === null)
      console.log('skipping the Alertmanager part: install Debian’s prometheus-alertmanager to run it');
    const dir = tempDir();
    const log = join(dir, 'server.log');
    const state = join(dir, 'state');
    writeFileSync(log, '');
    const webhook = await startReceiver({ failNext: 2 });
    const slack = await startReceiver();
    const amHook = await startReceiver();
    const alertmanager = ALERTMANAGER === null ? null : await startAlertmanager(dir, amHook.url);
    const hookOut = join(dir, 'hook.jsonl');
    const metricsPort = await freePort();
    const args = [
      'watch',
      '--follow',
      '--log',
      log,
      '--state-dir',
      state,
      '--webhook',
      webhook.url,
      '--slack-webhook',
      slack.url,
      '--on-failure',
      `${process.execPath} ${HOOK} ${hookOut}`,
      ...(alertmanager === null ? [] : ['--alertmanager', alertmanager.url]),
    ];
    const vigil = startVigil([...args, '--metrics-listen', `127.0.0.1:${metricsPort}`]);
    await waitFor('the watcher to start', () => vigil.output().stderr.includes('until stopped'));
    const bodies = (): WebhookBody[] => webhook.received.map((item) => JSON.parse(item.body) as WebhookBody);

    // A crash loop at start-up: two starts that run out of KV cache memory.
    for (let start = 0; start < 2; start += 1) {
      await startServer(log, 'startup-crash').exited;
      await sleep(300);
    }
    await waitFor('the start-up incident', () => bodies().length === 1, 30_000);
    // A start that becomes ready (resolving it), serves, and dies of a CUDA OOM.
    const dying = startServer(log, 'serve-then-die');
    const died = await dying.exited;
    await waitFor('the serving incident', () => bodies().length === 3, 30_000);
    // The recovery, then a stop that was asked for.
    const serving = startServer(log, 'serve');
    await waitFor('the recovery', () => bodies().length === 4, 30_000);
    serving.child.kill('SIGTERM');
    await serving.exited;
    await sleep(1500);

    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(await vigil.stop()).toBe(0);
    const { stderr } = vigil.output();
    expect(stderr).toContain('stopped as asked; state saved');
    // The webhook was down for its first two tries: retried, reported, nothing lost.
    expect(webhook.failed).toBe(2);
    expect(stderr).toMatch(/webhook did not take incident \S+ \(attempt 1\): answered 500/);

    const sent = bodies().map((body) => `${body.kind} ${body.incident.category} ${body.incident.phase}`);
    expect(sent).toEqual([
      'firing kv-cache-insufficient start-up',
      'resolved kv-cache-insufficient start-up',
      'firing oom-gpu serving',
      'resolved oom-gpu serving',
    ]);
    const [first, , third] = bodies();
    expect(first?.schema).toBe('vigil.incident.v1');
    expect(first?.incident.signature).toBe('vllm-no-kv-cache-blocks');
    expect(first?.diagnosis?.signature?.id).toBe('vllm-no-kv-cache-blocks');
    expect(third?.incident.cause).toMatch(/out of memory/i);
    expect(existsSync(first?.page ?? '')).toBe(true);
    const servingDelayMs = (webhook.received[2]?.atMs ?? 0) - died.atMs;
    console.log(`serving death to webhook: ${servingDelayMs} ms`);

    // Slack: the same four, in blocks with the cause and the fix.
    const slackTexts = slack.received.map(
      (item) => JSON.parse(item.body) as { text: string; blocks: unknown[] },
    );
    expect(slackTexts).toHaveLength(4);
    expect(JSON.stringify(slackTexts[0]?.blocks)).toContain(
      '*Root cause:* No GPU memory left for the KV cache',
    );
    expect(JSON.stringify(slackTexts[0]?.blocks)).toContain('*Fix:*');
    expect(slackTexts[1]?.text).toContain('Resolved');

    // --on-failure: once per new incident, its JSON on stdin and the fields in its environment.
    const hooks = readFileSync(hookOut, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { env: Record<string, string>; body: WebhookBody });
    expect(hooks.map((hook) => hook.env.VIGIL_CATEGORY)).toEqual(['kv-cache-insufficient', 'oom-gpu']);
    expect(hooks[0]?.body.incident.id).toBe(hooks[0]?.env.VIGIL_INCIDENT_ID);

    // /metrics: per target, as Prometheus reads it.
    const target = `log:${log}`;
    expect(metrics).toContain(`vigil_target_starts_total{target="${target}"} 4`);
    expect(metrics).toContain(
      `vigil_target_failures_total{target="${target}",category="kv-cache-insufficient",signature="vllm-no-kv-cache-blocks"} 2`,
    );
    expect(metrics).toContain(`vigil_incidents_open{target="${target}"} 0`);
    expect(metrics).toContain(`vigil_notifications_failed_total{receiver="webhook"} 2`);
    if (PROMTOOL === null)
      console.log('skipping promtool check metrics: install Debian’s prometheus to run it');
    else {
      const check = spawnSync(PROMTOOL, ['check', 'metrics'], { input: metrics, encoding: 'utf8' });
      expect(check.stderr + check.stdout).toBe('');
      expect(check.status).toBe(0);
    }

    // The real Alertmanager: one firing and one resolved notification per incident.
    if (alertmanager !== null) {
      const messages = (): AlertmanagerMessage[] =>
        amHook.received.map((item) => JSON.parse(item.body) as AlertmanagerMessage);
      await waitFor(
        `Alertmanager's resolutions (log: ${alertmanager.log()})`,
        () => messages().filter((message) => message.status === 'resolved').length === 2,
        30_000,
      );
      const seen = messages().map(
        (message) => `${message.status} ${message.alerts.map((alert) => alert.labels.category).join(',')}`,
      );
      expect(seen.sort()).toEqual([
        'firing kv-cache-insufficient',
        'firing oom-gpu',
        'resolved kv-cache-insufficient',
        'resolved oom-gpu',
      ]);
      const alert = messages()[0]?.alerts[0];
      expect(alert?.labels).toMatchObject({ target, engine: 'vllm', alertname: 'VigilServerFailure' });
      expect(alert?.labels.host).toBeTruthy();
      expect(alert?.annotations.root_cause).toBeTruthy();
      expect(alert?.annotations.page).toMatch(/page\.html$/);
    }

    // The watcher run again over the same log and state: nothing it already sent is sent again.
    const again = startVigil(args);
    await waitFor('the second watcher', () => again.output().stderr.includes('until stopped'));
    await sleep(3000);
    expect(await again.stop()).toBe(0);
    expect(webhook.received).toHaveLength(4);
    expect(slack.received).toHaveLength(4);

    // vigil incidents: the two, resolved; show and page.
    const list = spawnSync(process.execPath, [BIN, 'incidents', '--state-dir', state], { encoding: 'utf8' });
    expect(list.status).toBe(0);
    expect(list.stdout.trim().split('\n')).toHaveLength(2);
    expect(list.stdout).toMatch(/resolved\s+2x .*No GPU memory left for the KV cache/);
    const id = first?.incident.id ?? '';
    const show = spawnSync(process.execPath, [BIN, 'incidents', 'show', id, '--state-dir', state], {
      encoding: 'utf8',
    });
    expect(JSON.parse(show.stdout)).toMatchObject({
      incident: { id, count: 2, status: 'resolved' },
      diagnosis: { verdict: 'failure' },
    });
    const page = spawnSync(process.execPath, [BIN, 'incidents', 'page', id, '--state-dir', state], {
      encoding: 'utf8',
    });
    expect(readFileSync(page.stdout.trim(), 'utf8')).toContain('<html');
  }, 120_000);
});
