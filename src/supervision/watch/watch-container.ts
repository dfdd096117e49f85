import { UsageError } from '../../errors.js';
import {
  containerLogArgs,
  containerLogOptions,
  describeContainerLogs,
  findContainerRuntime,
  inspectContainer,
  type ContainerRuntime,
  type ContainerRuntimeName,
} from '../../sources/containers/index.js';
import { onHost } from '../../sources/index.js';
import {
  describeKubeLogs,
  kubeLogArgs,
  kubeLogOptions,
  readPod,
  readPodEvents,
} from '../../sources/kubectl.js';
import { localRunner, type CommandRunner } from '../../system/run-command.js';
import { followRuntimeContainer } from './follow-runtime.js';
import { followLogs, pauseUnlessAborted, type LogCommand } from './stream-logs.js';
import { WatchSession, type WatchOptions, type WatchOutcome } from './watch-session.js';

type RuntimeTarget = { kind: ContainerRuntimeName; container: string };
type KubeTarget = { kind: 'kube'; pod: string; namespace?: string; container?: string };
export type ContainerTarget = RuntimeTarget | KubeTarget;

export interface WatchContainerOptions extends WatchOptions {
  target: ContainerTarget;
  env: Record<string, string | undefined>;
  follow?: boolean;
  /** Where docker and kubectl run: here (default), or on the host --ssh names. */
  runner?: CommandRunner;
}

/** The container's state as the runtime's inspect or kubectl get pod tell it. */
interface ContainerState {
  running: boolean;
  /** How the last run ended: `exited 1 (Error)`; null while it runs. */
  ended: string | null;
  failed: boolean;
  restarts: number;
  /** Where the current (or last) run's logs start, for `logs --since`. */
  startedAt: string | null;
  /** Its logs are those of the previous container (kubectl logs --previous). */
  previous: boolean;
}

async function inspectRuntime(
  runtime: ContainerRuntime,
  container: string,
  env: Record<string, string | undefined>,
  runner: CommandRunner,
): Promise<ContainerState> {
  const info = await inspectContainer(runtime, container, runner, env);
  const running = info.running && !info.restarting;
  return {
    running,
    ended: running ? null : `exited ${info.exitCode}${info.oomKilled ? ' (OOM killed)' : ''}`,
    failed: !running && (info.exitCode !== 0 || info.oomKilled || info.restarting),
    restarts: info.restarts,
    startedAt: info.startedAt,
    previous: false,
  };
}

async function inspectKube(
  target: KubeTarget,
  env: Record<string, string | undefined>,
  runner: CommandRunner,
): Promise<ContainerState> {
  const pod = await readPod(target, runner, env);
  const terminated = pod.running ? null : pod.state.terminated;
  return {
    running: pod.running,
    ended:
      terminated === null
        ? null
        : `exited ${terminated.exitCode ?? '?'} (${terminated.reason ?? pod.state.waiting ?? 'terminated'})`,
    failed: !pod.running && (terminated?.exitCode ?? 1) !== 0,
    restarts: pod.state.restartCount,
    startedAt: null,
    previous: !pod.running && !pod.endedNow,
  };
}

function logCommand(target: ContainerTarget, state: ContainerState, follow: boolean): LogCommand {
  if (target.kind === 'kube') {
    const args = kubeLogArgs({ ...target, previous: state.previous, follow });
    return { program: 'kubectl', args, options: kubeLogOptions(Infinity, {}) };
  }
  const runtime = runtimeOf(target);
  const spec = {
    container: target.container,
    follow,
    ...(state.startedAt === null ? {} : { since: state.startedAt }),
  };
  return {
    program: runtime.program,
    args: containerLogArgs(spec),
    options: containerLogOptions(runtime, Infinity, {}),
  };
}

function runtimeOf(target: RuntimeTarget): ContainerRuntime {
  const runtime = findContainerRuntime(target.kind);
  if (runtime === undefined) throw new UsageError(`no container runtime ${target.kind}`);
  return runtime;
}

/**
 * `vigil watch --docker NAME` / `--kube POD`: the current run's logs as they come, then the runtime's word
 * on how it ended. A container that already crashed (restarting, CrashLoopBackOff) is diagnosed at once
 * from its last run's logs, the previous container's for Kubernetes.
 */
export async function watchContainer(
  options: WatchContainerOptions,
): Promise<{ outcome: WatchOutcome; exitCode: number }> {
  const { target, env } = options;
  const runner = options.runner ?? localRunner;
  const inspect = (): Promise<ContainerState> =>
    target.kind === 'kube'
      ? inspectKube(target, env, runner)
      : inspectRuntime(runtimeOf(target), target.container, env, runner);
  const before = await inspect();
  const read =
    target.kind === 'kube'
      ? describeKubeLogs({ ...target, previous: before.previous })
      : describeContainerLogs(runtimeOf(target), target.container);
  const session = new WatchSession({ ...options, describeRead: () => onHost(read, runner) });
  const follow = (options.follow ?? true) && before.running;
  session.goLive(follow);
  const invocation =
    target.kind === 'kube' ? `kube:${before.restarts}` : `${target.kind}:${before.startedAt ?? ''}`;
  const logs = followLogs(runner, logCommand(target, before, follow), env, (line) =>
    session.push({ text: line, message: line, systemd: false, invocation, atMs: Date.now() }),
  );
  const outcome = await Promise.race([session.outcome, logs.ended.then(() => null)]).finally(() =>
    logs.stop(),
  );
  if (outcome !== null) return { outcome, exitCode: outcome.kind === 'failed' ? 1 : 0 };
  // The log stream ended: the container stopped. Ask how, and count the starts it took.
  const after = follow ? await inspect() : before;
  session.setRestarts(after.restarts + (after.failed ? 1 : 0));
  if (after.ended !== null) {
    // A probe kill shows only in the pod's events.
    const podEvents =
      target.kind === 'kube' && after.failed
        ? await readPodEvents({ name: target.pod, namespace: target.namespace ?? null }, runner, env).catch(
            () => [],
          )
        : null;
    session.end(after.ended, after.failed, Date.now(), { podEvents });
  }
  session.finish();
  const final = await session.outcome;
  return { outcome: final, exitCode: final.kind === 'failed' ? 1 : 0 };
}

export interface FollowContainerOptions extends WatchContainerOptions {
  /** Ends the follow (the watcher was asked to stop). */
  signal: AbortSignal;
  /** How often to ask the runtime whether a stopped container runs again (default 2 s). */
  pollMs?: number;
}

/**
 * `vigil watch --follow --docker NAME` / `--podman NAME` / `--kube POD`: every run of the container, until
 * stopped. docker and podman: follow-runtime.ts. A pod's container is named by its restart count, so a
 * watcher run again knows the runs it already reported; `kubectl logs --follow` follows one container
 * instance and ends with it, and the run is judged by the pod's state (its exit, or a restart count that
 * grew while it was away).
 */
export async function followContainer(options: FollowContainerOptions): Promise<void> {
  const { target, env, signal } = options;
  const runner = options.runner ?? localRunner;
  if (target.kind !== 'kube') {
    await followRuntimeContainer({
      ...options,
      runtime: runtimeOf(target),
      container: target.container,
      runner,
    });
    return;
  }
  const emit = options.onEvent ?? ((): void => undefined);
  const inspect = (): Promise<ContainerState> => inspectKube(target, env, runner);
  const session = new WatchSession({
    ...options,
    continuous: true,
    describeRead: () => onHost(describeKubeLogs({ ...target, previous: false }), runner),
  });
  session.goLive(true);
  const runKey = (state: ContainerState): string => `kube:${state.restarts}`;
  const judged = new Set<string>();
  let warned = false;
  const pause = (ms: number): Promise<void> => pauseUnlessAborted(ms, signal);
  while (!signal.aborted) {
    let state: ContainerState;
    try {
      state = await inspect();
      warned = false;
    } catch (error) {
      // A container removed and made again (compose up) is away for a while: say so once, and go on.
      if (!warned) emit({ type: 'note', text: `cannot inspect now: ${String(error)}` });
      warned = true;
      await pause(options.pollMs ?? 2000);
      continue;
    }
    const key = runKey(state);
    if (judged.has(key)) {
      await pause(options.pollMs ?? 2000);
      continue;
    }
    const push = (line: string): void =>
      session.push({ text: line, message: line, systemd: false, invocation: key, atMs: Date.now() });
    const logs = followLogs(runner, logCommand(target, state, state.running), env, push);
    const stop = (): void => logs.stop();
    signal.addEventListener('abort', stop, { once: true });
    await logs.ended.catch((error: unknown) => emit({ type: 'note', text: `logs ended: ${String(error)}` }));
    signal.removeEventListener('abort', stop);
    if (signal.aborted) break;
    judged.add(key);
    const after = await inspect().catch(() => null);
    if (after === null) continue;
    // Running again under another name: the run whose logs ended is over, and a grown count says it failed.
    const again = runKey(after) !== key && after.running;
    const failed = again ? after.restarts > state.restarts : after.failed;
    const ended = again ? `restarted (${after.restarts} restart(s))` : (after.ended ?? 'stopped');
    session.setRestarts(after.restarts);
    session.end(ended, failed, Date.now());
  }
  session.finish();
}
