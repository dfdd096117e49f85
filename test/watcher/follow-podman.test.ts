import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { sshdMissing, startSshd } from '../helpers/start-sshd.js';
import { spawnSync } from 'node:child_process';
import { dockerMissing, podmanMissing, preparePodman, startDockerApi, type Podman } from './podman.js';
import { BIN, startReceiver, startVigil, tempDir, waitFor } from './helpers.js';

// A real container under real podman (see podman.ts): its first two runs print vLLM's start-up and die of
// the KV-cache error, the third becomes ready. podman restarts it itself (`--restart on-failure`), at once:
// the next run's lines come right behind the death, in the same `podman logs --follow` stream when podman
// has not noticed the death yet. The watcher follows it by name through `podman inspect` and `podman logs
// --follow --timestamps`, as users run it, and must still see three runs.

const MISSING = podmanMissing();
const DOCKER_MISSING = dockerMissing();
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

/** The CLI a user drives the container with: podman itself, or the docker CLI through podman's socket. */
interface Runtime {
  name: 'podman' | 'docker';
  env: Record<string, string>;
  run(args: string[]): string;
}

async function reachRuntime(podman: Podman, name: Runtime['name']): Promise<Runtime> {
  if (name === 'podman') return { name, env: podman.env, run: (args) => podman.run(args) };
  const env = await startDockerApi(podman);
  const run = (args: string[]): string => {
    const result = spawnSync('docker', args, { env: { ...process.env, ...env }, encoding: 'utf8' });
    if (result.status !== 0)
      throw new Error(`docker ${args.join(' ')}: status ${result.status}: ${result.stderr.trim()}`);
    return result.stdout;
  };
  return { name, env, run };
}

/**
 * The crash loop: a container restarted twice after the KV-cache error, then ready; followed by
 * `vigil watch --follow --podman vllm` (or `--docker vllm`, the docker CLI against podman's Docker API)
 * with `transport` (none, or --ssh) and a webhook on 127.0.0.1.
 */
async function followCrashLoop(
  name: Runtime['name'],
  transport: (podman: Podman) => Promise<string[]>,
): Promise<void> {
  const podman = preparePodman({
    'bin/serve': SERVE,
    'logs/crash.log': fixture('vllm-kv-cache-no-blocks'),
    'logs/healthy.log': fixture('vllm-healthy-start'),
  });
  const runtime = await reachRuntime(podman, name);
  runtime.run([
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
      `--${name}`,
      'vllm',
      '--state-dir',
      state,
      '--webhook',
      webhook.url,
    ],
    runtime.env,
  );
  // Started once the watcher saw it never ran: its first run is one the watcher must count.
  await waitFor('the watcher to see the container', () =>
    vigil.output().stderr.includes('never started yet'),
  );
  runtime.run(['start', 'vllm']);
  await waitFor('the resolution', () => webhook.received.length === 2, 60_000).catch((error: unknown) => {
    throw new Error(`${String(error)}; the watcher said:\n${vigil.output().stderr}`);
  });
  expect(await vigil.stop()).toBe(0);

  const { stderr } = vigil.output();
  expect(stderr).toContain(`${name}:vllm: failed again with the same cause (2 times`);
  const bodies = webhook.received.map((item) => JSON.parse(item.body) as WebhookBody);
  expect(bodies.map((body) => `${body.kind} ${body.incident.target} ${body.incident.signature}`)).toEqual([
    `firing ${name}:vllm vllm-no-kv-cache-blocks`,
    `resolved ${name}:vllm vllm-no-kv-cache-blocks`,
  ]);
  expect(bodies[1]?.incident.count).toBe(2);
  const inspect = JSON.parse(runtime.run(['inspect', '--type=container', 'vllm'])) as {
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
  // Real podman timing: under a load of 13-18 one run in about four missed the third start (cause not
  // found: 6 of 6, 3 each with and without --ssh, passed without a retry at load 2-4 on 2026-12-04); a
  // second try keeps an overloaded machine from failing the suite while a broken follow still fails.
  it(
    'is one incident counted twice for the crash loop, resolved when the restarted container is ready',
    { retry: 1, timeout: 120_000 },
    async () => {
      await followCrashLoop('podman', () => Promise.resolve([]));
    },
  );

  // The same through a real sshd on 127.0.0.1: podman inspect and podman logs --follow run on the far side.
  it.skipIf(SSH_MISSING !== null)('is the same through --ssh', { retry: 1, timeout: 120_000 }, async () => {
    await followCrashLoop('podman', async (podman) => {
      const sshd = await startSshd({ setEnv: podman.env });
      onTestFinished(() => sshd.stop());
      return ['--ssh', sshd.alias, '--ssh-config', sshd.config];
    });
  });
});

// The docker CLI a user has (Debian's docker.io in CI), against podman's Docker-compatible API on a socket
// of the test's (`podman system service`, DOCKER_HOST): no dockerd runs here.
describe.skipIf(DOCKER_MISSING !== null)('the docker CLI against podman’s Docker API, real podman', () => {
  it(
    'vigil watch --follow --docker: one incident counted twice for the crash loop, resolved when ready',
    { timeout: 120_000 },
    async () => {
      await followCrashLoop('docker', () => Promise.resolve([]));
    },
  );

  it('vigil diagnose --docker names the cause of a container that crashed', { timeout: 60_000 }, async () => {
    const podman = preparePodman({
      'bin/serve': '#!/bin/sh\ncat /logs/crash.log\nexit 1\n',
      'logs/crash.log': fixture('vllm-kv-cache-no-blocks'),
    });
    const docker = await reachRuntime(podman, 'docker');
    docker.run(['create', '--name=vllm', '--network=none', 'localhost/vigil-test:1', '/bin/serve']);
    docker.run(['start', 'vllm']);
    // `docker wait` returns once the container exited, with its status.
    expect(docker.run(['wait', 'vllm']).trim()).toBe('1');
    const diagnosed = spawnSync(process.execPath, [BIN, 'diagnose', '--docker', 'vllm', '--format', 'json'], {
      env: { ...process.env, ...docker.env },
      encoding: 'utf8',
    });
    expect(diagnosed.stderr).toBe('');
    expect(diagnosed.status).toBe(1);
    const report = JSON.parse(diagnosed.stdout) as { signature: { id: string } | null };
    expect(report.signature?.id).toBe('vllm-no-kv-cache-blocks');
  });
});

if (MISSING !== null) console.log(`skipping the real podman tests: ${MISSING}`);
else if (DOCKER_MISSING !== null)
  console.log(`skipping the docker CLI against podman's Docker API: ${DOCKER_MISSING}`);
else if (SSH_MISSING !== null) console.log(`skipping the real podman test through --ssh: ${SSH_MISSING}`);
