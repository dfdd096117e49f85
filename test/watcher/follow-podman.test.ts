import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { sshdMissing, startSshd } from '../helpers/start-sshd.js';
import { podmanMissing, preparePodman, type Podman } from './podman.js';
import { startReceiver, startVigil, tempDir, waitFor } from './helpers.js';

// A real container under real podman (see podman.ts): its first two runs print vLLM's start-up and die of
// the KV-cache error, the third becomes ready. podman restarts it itself (`--restart on-failure`), at once:
// the next run's lines come right behind the death, in the same `podman logs --follow` stream when podman
// has not noticed the death yet. The watcher follows it by name through `podman inspect` and `podman logs
// --follow --timestamps`, as users run it, and must still see three runs.

const MISSING = podmanMissing();
const SSH_MISSING = sshdMissing();
const fixture = (name: string): string =>
  readFileSync(fileURLToPath(new URL(`../supervision/fixtures/logs/${name}.log`, import.meta.url)), 'utf8');

// Runs 1 and 2 fail after a pause (so each run is seen while it runs) and exit as soon as they printed
// their death; run 3 serves. The count survives a restart because a restarted container keeps its
// filesystem.
const SERVE = `#!/bin/sh
n=$(cat /run-count 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" > /run-count
if [ "$n" -lt 3 ]; then
  sleep 2
  cat /logs/crash.log
  exit 1
fi
cat /logs/healthy.log
exec sleep 600
`;

interface WebhookBody {
  kind: string;
  incident: { target: string; signature: string; count: number };
}

/**
 * The crash loop: a container restarted twice after the KV-cache error, then ready; followed by
 * `vigil watch --follow --podman vllm` with `transport` (none, or --ssh) and a webhook on 127.0.0.1.
 */
async function followCrashLoop(transport: (podman: Podman) => Promise<string[]>): Promise<void> {
  const podman = preparePodman({
    'bin/serve': SERVE,
    'logs/crash.log': fixture('vllm-kv-cache-no-blocks'),
    'logs/healthy.log': fixture('vllm-healthy-start'),
  });
  podman.run([
    'create',
    '--name=vllm',
    '--network=none',
    '--restart=on-failure',
    'localhost/vigil-test:1',
    '/bin/serve',
  ]);
  const dir = tempDir();
  const state = join(dir, 'state');
  const webhook = await startReceiver();
  const vigil = startVigil(
    [
      'watch',
      '--follow',
      ...(await transport(podman)),
      '--podman',
      'vllm',
      '--state-dir',
      state,
      '--webhook',
      webhook.url,
    ],
    podman.env,
  );
  // Started once the watcher saw it never ran: its first run is one the watcher must count.
  await waitFor('the watcher to see the container', () =>
    vigil.output().stderr.includes('never started yet'),
  );
  podman.run(['start', 'vllm']);
  await waitFor('the resolution', () => webhook.received.length === 2, 60_000).catch((error: unknown) => {
    throw new Error(`${String(error)}; the watcher said:\n${vigil.output().stderr}`);
  });
  expect(await vigil.stop()).toBe(0);

  const { stderr } = vigil.output();
  expect(stderr).toContain('podman:vllm: failed again with the same cause (2 times');
  const bodies = webhook.received.map((item) => JSON.parse(item.body) as WebhookBody);
  expect(bodies.map((body) => `${body.kind} ${body.incident.target} ${body.incident.signature}`)).toEqual([
    'firing podman:vllm vllm-no-kv-cache-blocks',
    'resolved podman:vllm vllm-no-kv-cache-blocks',
  ]);
  expect(bodies[1]?.incident.count).toBe(2);
  const inspect = JSON.parse(podman.run(['inspect', '--type=container', 'vllm'])) as {
    RestartCount: number;
    State: { Running: boolean };
  }[];
  expect(inspect[0]?.RestartCount).toBe(2);
  expect(inspect[0]?.State.Running).toBe(true);
  const saved = JSON.parse(readFileSync(join(state, 'state.json'), 'utf8')) as {
    incidents: { status: string; count: number; host: string }[];
  };
  expect(saved.incidents.map((incident) => [incident.status, incident.count])).toEqual([['resolved', 2]]);
}

describe.skipIf(MISSING !== null)('vigil watch --follow --podman, real podman', () => {
  // Real podman timing: under a load of 13-18 one run in about four missed the third start (open in the
  // note); a second try keeps an overloaded machine from failing the suite while a broken follow still fails.
  it(
    'is one incident counted twice for the crash loop, resolved when the restarted container is ready',
    { retry: 1, timeout: 120_000 },
    async () => {
      await followCrashLoop(() => Promise.resolve([]));
    },
  );

  // The same through a real sshd on 127.0.0.1: podman inspect and podman logs --follow run on the far side.
  it.skipIf(SSH_MISSING !== null)('is the same through --ssh', { retry: 1, timeout: 120_000 }, async () => {
    await followCrashLoop(async (podman) => {
      const sshd = await startSshd({ setEnv: podman.env });
      onTestFinished(() => sshd.stop());
      return ['--ssh', sshd.alias, '--ssh-config', sshd.config];
    });
  });
});

if (MISSING !== null) console.log(`skipping the real podman tests: ${MISSING}`);
else if (SSH_MISSING !== null) console.log(`skipping the real podman test through --ssh: ${SSH_MISSING}`);
