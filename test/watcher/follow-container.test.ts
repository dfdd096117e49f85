import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startReceiver, startVigil, tempDir, waitFor } from './helpers.js';

// No docker daemon runs here: a stand-in docker keeps a container's runs in a file. Each `docker logs
// --follow` prints one run and ends as the container restarts (StartedAt and RestartCount change), the
// third run serves until the watch stops. It prints docker's inspect JSON, as the CLI test's stand-ins do.

const logOf = (name: string): string =>
  fileURLToPath(new URL(`../supervision/fixtures/logs/${name}.log`, import.meta.url));

function fakeDocker(dir: string): string {
  const run = join(dir, 'run');
  writeFileSync(run, '1');
  const script = `#!/bin/sh
n=$(cat ${run})
case "$1" in
  inspect)
    echo "[{\\"State\\":{\\"Status\\":\\"running\\",\\"Running\\":true,\\"Restarting\\":false,\\"ExitCode\\":0,\\"StartedAt\\":\\"2026-03-03T10:00:0$n.000000000Z\\"},\\"RestartCount\\":$((n - 1))}]" ;;
  logs)
    if [ "$n" -lt 3 ]; then cat ${logOf('vllm-kv-cache-no-blocks')}; echo $((n + 1)) > ${run}; exit 0; fi
    cat ${logOf('vllm-healthy-start')}; exec sleep 60 ;;
esac
`;
  writeFileSync(join(dir, 'docker'), script);
  chmodSync(join(dir, 'docker'), 0o755);
  return dir;
}

describe('vigil watch --follow --docker, a container that restarts', () => {
  it('is one incident for the crash loop, resolved when a run becomes ready', async () => {
    const dir = tempDir();
    const bin = fakeDocker(dir);
    const webhook = await startReceiver();
    const vigil = startVigil(
      ['watch', '--follow', '--docker', 'vllm', '--state-dir', join(dir, 'state'), '--webhook', webhook.url],
      { PATH: `${bin}:${process.env.PATH ?? ''}` },
    );
    await waitFor('the resolution', () => webhook.received.length === 2, 30_000);
    expect(await vigil.stop()).toBe(0);
    const { stderr } = vigil.output();
    expect(stderr).toContain('docker:vllm: failed again with the same cause (2 times');
    expect(stderr).toContain('docker:vllm: start 3 began');
    const kinds = webhook.received.map((item) => {
      const body = JSON.parse(item.body) as { kind: string; incident: { signature: string; target: string } };
      return `${body.kind} ${body.incident.target} ${body.incident.signature}`;
    });
    expect(kinds).toEqual([
      'firing docker:vllm vllm-no-kv-cache-blocks',
      'resolved docker:vllm vllm-no-kv-cache-blocks',
    ]);
  }, 60_000);
});
