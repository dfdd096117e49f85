import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../helpers/run-cli-captured.js';
import { startReceiver, startVigil, tempDir, waitFor } from './helpers.js';

// No cluster runs here. A stand-in kubectl keeps each pod in a folder the test changes as a cluster would
// (a container restarts, a pod is deleted, a new one is scheduled) and prints what the real kubectl prints
// for it: `get pods -o json` a List of Pod objects (the pod below is one real kubectl printed, from
// test/fixtures/fleet/rollout-8-pods), `get pod NAME -o json` the Pod, `logs --follow` the current
// container's lines until the container ends, `logs --previous` the last one's.

const KUBECTL = `#!/bin/sh
echo "$*" >> "$KUBE/calls.log"
case "$1" in
  get)
    case "$2" in
      pods)
        printf '{\\n    "apiVersion": "v1",\\n    "items": ['
        first=1
        for f in "$KUBE"/pods/*.json; do
          [ -f "$f" ] || continue
          [ "$first" = 1 ] || printf ','
          first=0
          cat "$f"
        done
        printf '],\\n    "kind": "List",\\n    "metadata": {\\n        "resourceVersion": ""\\n    }\\n}\\n' ;;
      pod)
        if [ -f "$KUBE/pods/$3.json" ]; then cat "$KUBE/pods/$3.json"
        else echo "Error from server (NotFound): pods \\"$3\\" not found" >&2; exit 1; fi ;;
      events) printf '{\\n    "apiVersion": "v1",\\n    "items": [],\\n    "kind": "List",\\n    "metadata": {\\n        "resourceVersion": ""\\n    }\\n}\\n' ;;
      *) echo "error: the server doesn't have a resource type \\"$2\\"" >&2; exit 1 ;;
    esac ;;
  logs)
    pod="$2"; prev=; follow=
    for a in "$@"; do case "$a" in --previous) prev=.previous ;; --follow) follow=1 ;; esac; done
    if [ ! -f "$KUBE/logs/$pod$prev.log" ]; then
      echo "Error from server (BadRequest): previous terminated container \\"vllm\\" in pod \\"$pod\\" not found" >&2; exit 1
    fi
    run=$(cat "$KUBE/runs/$pod" 2>/dev/null)
    cat "$KUBE/logs/$pod$prev.log"
    # --follow ends when the container does: its run changes (a restart) or the pod goes.
    if [ -n "$follow" ]; then
      while [ -f "$KUBE/runs/$pod" ] && [ "$(cat "$KUBE/runs/$pod")" = "$run" ]; do sleep 0.2; done
    fi ;;
  *) echo "error: unknown command \\"$1\\" for \\"kubectl\\"" >&2; exit 1 ;;
esac
`;

const logOf = (name: string): string =>
  readFileSync(fileURLToPath(new URL(`../supervision/fixtures/logs/${name}.log`, import.meta.url)), 'utf8');
const REAL_POD = (
  JSON.parse(
    readFileSync(
      fileURLToPath(new URL('../fixtures/fleet/rollout-8-pods/pods.json', import.meta.url)),
      'utf8',
    ),
  ) as { items: Record<string, unknown>[] }
).items[0] as { metadata: Record<string, unknown>; status: Record<string, unknown> };

/** The real pod, renamed, with its one container running its `restarts + 1`th run (the last ones failed). */
function podJson(name: string, restarts: number): string {
  const startedAt = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const pod = {
    ...REAL_POD,
    metadata: { ...REAL_POD.metadata, name, namespace: 'llm', labels: { app: 'vllm' } },
    status: {
      ...REAL_POD.status,
      phase: 'Running',
      containerStatuses: [
        {
          containerID: `containerd://${name}-${restarts}`,
          image: 'vllm/vllm-openai:v0.10.1',
          imageID:
            'docker.io/vllm/vllm-openai@sha256:b29814cf5792e684cd75d6a7fce7a67a11887e312f87ca2ac2496d81f365ff72',
          lastState:
            restarts === 0
              ? {}
              : { terminated: { exitCode: 1, reason: 'Error', startedAt, finishedAt: startedAt } },
          name: 'vllm',
          ready: false,
          restartCount: restarts,
          started: true,
          state: { running: { startedAt } },
        },
      ],
    },
  };
  return JSON.stringify(pod, null, 4);
}

/** A stand-in cluster: pods the test starts, restarts and deletes. */
function standInCluster(dir: string) {
  for (const folder of ['bin', 'pods', 'logs', 'runs']) mkdirSync(join(dir, folder));
  writeFileSync(join(dir, 'bin/kubectl'), KUBECTL);
  chmodSync(join(dir, 'bin/kubectl'), 0o755);
  const runs = new Map<string, number>();
  return {
    env: { PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`, KUBE: dir },
    calls: (): string[] => readFileSync(join(dir, 'calls.log'), 'utf8').split('\n'),
    /** The pod's container (re)starts and prints `log`; its last run's lines become --previous. */
    run(name: string, log: string): void {
      const restarts = runs.has(name) ? (runs.get(name) ?? 0) + 1 : 0;
      runs.set(name, restarts);
      const current = join(dir, 'logs', `${name}.log`);
      if (restarts > 0) writeFileSync(join(dir, 'logs', `${name}.previous.log`), readFileSync(current));
      writeFileSync(current, log);
      writeFileSync(join(dir, 'pods', `${name}.json`), podJson(name, restarts));
      writeFileSync(join(dir, 'runs', name), String(restarts));
    },
    delete(name: string): void {
      for (const file of [`pods/${name}.json`, `runs/${name}`]) rmSync(join(dir, file));
    },
  };
}

describe('vigil watch --follow --kube -l SELECTOR -n NS (kubectl stand-in)', () => {
  it('follows each pod the selector names and each restart of its container, as pods come and go', async () => {
    const dir = tempDir();
    const cluster = standInCluster(dir);
    cluster.run('vllm-0', logOf('vllm-kv-cache-no-blocks'));
    const webhook = await startReceiver();
    const vigil = startVigil(
      ['watch', '--follow', '--kube', '-l', 'app=vllm', '-n', 'llm'].concat([
        '--state-dir',
        join(dir, 'state'),
        '--webhook',
        webhook.url,
      ]),
      cluster.env,
    );
    // Each step waits until the watcher has read the run's lines (it said the phase), as a cluster's
    // restart takes longer than reading them.
    const step = (what: string, text: string, times = 1): Promise<void> =>
      waitFor(what, () => vigil.output().stderr.split(text).length > times, 30_000).catch(
        (error: unknown) => {
          throw new Error(`${String(error)}; the watcher said:\n${vigil.output().stderr}`);
        },
      );
    await step('the first run', 'kube:llm/vllm-0: memory profiling');
    cluster.run('vllm-0', logOf('vllm-kv-cache-no-blocks'));
    await step('the incident', 'kube:llm/vllm-0: incident');
    await step('the second run', 'kube:llm/vllm-0: memory profiling', 2);
    cluster.run('vllm-0', logOf('vllm-healthy-start'));
    await step('the resolution', 'resolved (ready again)');
    // A rollout: a new pod comes, the old one goes.
    cluster.run('vllm-1', logOf('vllm-healthy-start'));
    cluster.delete('vllm-0');
    await step('the new pod ready', 'kube:llm/vllm-1: ready');
    await step('the old pod gone', 'kube:llm/vllm-0: no longer matches app=vllm');
    await waitFor('both notices', () => webhook.received.length === 2);
    expect(await vigil.stop()).toBe(0);

    const { stderr } = vigil.output();
    expect(stderr).toContain('kube:llm/vllm-0: failed again with the same cause (2 times');
    expect(stderr).toContain('kube:llm/vllm-0: start 3 began');
    const bodies = webhook.received.map(
      (item) => JSON.parse(item.body) as { kind: string; incident: { target: string; count: number } },
    );
    expect(bodies.map((body) => [body.kind, body.incident.target, body.incident.count])).toEqual([
      ['firing', 'kube:llm/vllm-0', 1],
      ['resolved', 'kube:llm/vllm-0', 2],
    ]);
    const calls = cluster.calls();
    expect(calls).toContain('get pods --selector=app=vllm --namespace=llm --output=json');
    expect(calls).toContain('get pod vllm-1 --output=json --namespace=llm');
    expect(calls).toContain('logs vllm-1 --namespace=llm --follow');
  }, 90_000);

  it('refuses -l without --follow, and --kube with neither a pod nor -l: one line, exit 2', async () => {
    const once = await runCliCaptured(['watch', '--kube', '-l', 'app=vllm']);
    expect([once.code, once.stderr]).toEqual([
      2,
      'vigil: -l SELECTOR goes with --follow (or --print-manifest) --kube and no POD\n',
    ]);
    const bare = await runCliCaptured(['watch', '--follow', '--kube']);
    expect([bare.code, bare.stderr]).toEqual([
      2,
      'vigil: --kube needs a POD, or -l SELECTOR with --follow\n',
    ]);
    const bad = await runCliCaptured(['watch', '--follow', '--kube', '-l', 'app=vllm;reboot']);
    expect([bad.code, bad.stderr]).toEqual([
      2,
      'vigil: invalid label selector "app=vllm;reboot": use key=value pairs joined by commas, e.g. -l app=vllm\n',
    ]);
  });
});
