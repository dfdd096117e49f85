import { listPods, type PodQuery } from '../../sources/kubectl.js';
import { localRunner, type CommandRunner } from '../../system/run-command.js';
import { pauseUnlessAborted as pause } from './stream-logs.js';
import { followContainer } from './watch-container.js';
import type { WatchEvent, WatchOptions } from './watch-session.js';

export interface FollowPodsOptions extends WatchOptions {
  query: PodQuery;
  env: Record<string, string | undefined>;
  runner?: CommandRunner;
  /** Ends the follow of every pod (the watcher was asked to stop). */
  signal: AbortSignal;
  /** How often to list the selector's pods, and to ask a pod whether its container runs again (default 2 s). */
  pollMs?: number;
  /** One pod's watch event; `pod` is null for a word on the selector itself (the list cannot be read). */
  onPodEvent(pod: { name: string; namespace: string | null } | null, event: WatchEvent): void;
}

interface PodFollower {
  controller: AbortController;
  done: Promise<void>;
}

/**
 * `vigil watch --follow --kube -l SELECTOR`: the pods the selector names, listed again every poll; a pod
 * that appears is followed from then on (each restart of its container, as `--kube POD` does), a pod that
 * no longer matches (deleted, replaced by a rollout) stops being followed. Each pod is its own target: a
 * Deployment's replacement pod has a new name, so its failures open their own incident.
 */
export async function followPods(options: FollowPodsOptions): Promise<void> {
  const { query, env, signal } = options;
  const runner = options.runner ?? localRunner;
  const pollMs = options.pollMs ?? 2000;
  const followers = new Map<string, PodFollower>();
  let warned = false;
  while (!signal.aborted) {
    const pods = await listPods(query, runner, env).then(
      (listed) => ((warned = false), listed),
      (error: unknown) => {
        // The API server away for a while: said once, and the pods already followed go on.
        if (!warned)
          options.onPodEvent(null, { type: 'note', text: `cannot list pods now: ${String(error)}` });
        warned = true;
        return null;
      },
    );
    // The selector's first listing is its backlog: pods that come later are followed as they appear.
    options.onLive?.();
    if (pods !== null) {
      const keys = new Set<string>();
      for (const pod of pods) {
        const namespace = pod.namespace ?? query.namespace ?? null;
        const key = `${namespace ?? ''}/${pod.name}`;
        keys.add(key);
        if (!followers.has(key)) followers.set(key, followPod(options, runner, pod.name, namespace, pollMs));
      }
      for (const [key, follower] of followers) {
        if (keys.has(key)) continue;
        follower.controller.abort();
        followers.delete(key);
        const [namespace, name] = key.split('/') as [string, string];
        options.onPodEvent(
          { name, namespace: namespace === '' ? null : namespace },
          {
            type: 'note',
            text: `no longer matches ${query.selector} (deleted or replaced); not followed now`,
          },
        );
      }
    }
    await pause(pollMs, signal);
  }
  await Promise.all([...followers.values()].map((follower) => follower.done));
}

function followPod(
  options: FollowPodsOptions,
  runner: CommandRunner,
  name: string,
  namespace: string | null,
  pollMs: number,
): PodFollower {
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  options.signal.addEventListener('abort', stop, { once: true });
  const pod = { name, namespace };
  options.onPodEvent(pod, { type: 'note', text: `matches ${options.query.selector}; followed from now` });
  const done = followContainer({
    ...options,
    target: {
      kind: 'kube',
      pod: name,
      ...(namespace === null ? {} : { namespace }),
      ...(options.query.container === undefined ? {} : { container: options.query.container }),
    },
    runner,
    signal: controller.signal,
    pollMs,
    onEvent: (event) => options.onPodEvent(pod, event),
  })
    .catch((error: unknown) =>
      options.onPodEvent(pod, { type: 'note', text: `stopped following: ${String(error)}` }),
    )
    .finally(() => options.signal.removeEventListener('abort', stop));
  return { controller, done };
}
