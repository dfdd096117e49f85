import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { findProgram, freePort, waitFor } from './helpers.js';

/** Debian's prometheus-alertmanager, or null (the tests that need it say what to install and skip). */
export const ALERTMANAGER = findProgram('prometheus-alertmanager') ?? findProgram('alertmanager');

/**
 * The real Alertmanager on 127.0.0.1, one notification group per incident, sent at once and resolutions
 * too, to a webhook receiver at `hookUrl`.
 */
export async function startAlertmanager(
  dir: string,
  hookUrl: string,
): Promise<{ url: string; log(): string }> {
  if (ALERTMANAGER === null) throw new Error('no alertmanager');
  const port = await freePort();
  const config = join(dir, 'alertmanager.yml');
  writeFileSync(
    config,
    [
      'route:',
      '  receiver: hook',
      "  group_by: ['incident']",
      '  group_wait: 0s',
      '  group_interval: 1s',
      '  repeat_interval: 1h',
      'receivers:',
      '  - name: hook',
      '    webhook_configs:',
      `      - url: ${hookUrl}`,
      '        send_resolved: true',
      '',
    ].join('\n'),
  );
  const storage = join(dir, 'alertmanager-data');
  mkdirSync(storage, { recursive: true });
  const child = spawn(
    ALERTMANAGER,
    [
      `--config.file=${config}`,
      `--storage.path=${storage}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--cluster.listen-address=',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (log += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (log += text));
  onTestFinished(() => {
    child.kill('SIGKILL');
  });
  const url = `http://127.0.0.1:${port}`;
  let ready = false;
  await waitFor(`alertmanager on ${url} (its log: ${log})`, () => {
    void fetch(`${url}/-/ready`)
      .then((response) => (ready = response.ok))
      .catch(() => undefined);
    return ready;
  });
  return { url, log: () => log };
}
