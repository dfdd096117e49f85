import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startReceiver, startVigil, tempDir, waitFor } from './helpers.js';

// No docker daemon runs here: a stand-in docker keeps a container's runs in a file. Each `docker logs
// --follow --timestamps` prints one run, each line after docker's time for it, and ends as the container
// restarts (StartedAt, FinishedAt and RestartCount change), the
// third run serves until the watch stops. It prints docker's inspect JSON, as the CLI test's stand-ins do.

const logOf = (name: string): string =>
  fileURLToPath(new URL(`../supervision/fixtures/logs/${name}.log`, import.meta.url));

function fakeDocker(dir: string): string {
  const run = join(dir, 'run');
  writeFileSync(run, '1');
  const script = `#!/bin/sh
n=$(cat ${run})
# While run n runs, FinishedAt is the end of run n - 1 (year 1 before any run ended).
finished=0001-01-01T00:00:00Z
if [ "$n" -gt 1 ]; then finished="2026-03-03T10:00:0$((n - 1)).900000000Z"; fi
case "$1" in
  inspect)
    echo "[{\\"State\\":{\\"Status\\":\\"running\\",\\"Running\\":true,\\"Restarting\\":false,\\"ExitCode\\":0,\\"StartedAt\\":\\"2026-03-03T10:00:0$n.000000000Z\\",\\"FinishedAt\\":\\"$finished\\"},\\"RestartCount\\":$((n - 1))}]" ;;
  logs)
    # --timestamps: docker's RFC 3339 time before each line, here within the run's second.
    stamp="s/^/2026-03-03T10:00:0$n.500000000Z /"
    if [ "$n" -lt 3 ]; then sed "$stamp" ${logOf('vllm-kv-cache-no-blocks')}; echo $((n + 1)) > ${run}; exit 0; fi
    sed "$stamp" ${logOf('vllm-healthy-start')}; exec sleep 60 ;;
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
