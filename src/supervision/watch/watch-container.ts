import { SourceError } from '../../errors.js';
import { validateContainerName, validateKubeLabel, validatePodName } from '../../sources/validate-names.js';
import { localRunner, type CommandRunner } from '../../system/run-command.js';
import { OutputLineSplitter } from '../split-output-lines.js';
import { readPodEvents } from './read-pod-events.js';
import { WatchSession, type WatchOptions, type WatchOutcome } from './watch-session.js';

export type ContainerTarget =
  | { kind: 'docker'; container: string }
  | { kind: 'kube'; pod: string; namespace?: string; container?: string };

export interface WatchContainerOptions extends WatchOptions {
  target: ContainerTarget;
  env: Record<string, string | undefined>;
  follow?: boolean;
  /** Where docker and kubectl run: here (default), or on the host --ssh names. */
  runner?: CommandRunner;
}

/** The container's state as docker inspect or kubectl get pod tell it. */
interface ContainerState {
  running: boolean;
  /** How the last run ended: `exited 1 (Error)`; null while it runs. */
  ended: string | null;
  failed: boolean;
  restarts: number;
  /** Where the current (or last) run's logs start, for docker logs --since. */
  startedAt: string | null;
  /** Its logs are those of the previous container (kubectl logs --previous). */
  previous: boolean;
}

async function inspectDocker(
  container: string,
  env: Record<string, string | undefined>,
  runner: CommandRunner,
): Promise<ContainerState> {
  const result = await runner.run('docker', ['inspect', '--type', 'container', container], {
    timeoutMs: 30_000,
    env: env,
  });
  if (result.code !== 0)
    throw new SourceError(`docker inspect ${container} failed: ${firstLine(result.stderr)}`);
  const [info] = JSON.parse(result.stdout) as {
    State?: {
      Running?: boolean;
      Restarting?: boolean;
      ExitCode?: number;
      OOMKilled?: boolean;
      StartedAt?: string;
      Error?: string;
    };
    RestartCount?: number;
  }[];
  const state = info?.State ?? {};
  const running = state.Running === true && state.Restarting !== true;
  const code = state.ExitCode ?? 0;
  return {
    running,
    ended: running ? null : `exited ${code}${state.OOMKilled === true ? ' (OOM killed)' : ''}`,
    failed: !running && (code !== 0 || state.OOMKilled === true || state.Restarting === true),
    restarts: info?.RestartCount ?? 0,
    startedAt: state.StartedAt ?? null,
    previous: false,
  };
}

interface KubeContainerStatus {
  name?: string;
  restartCount?: number;
  state?: {
    running?: object;
    waiting?: { reason?: string };
    terminated?: { exitCode?: number; reason?: string };
  };
  lastState?: { terminated?: { exitCode?: number; reason?: string } };
}

async function inspectKube(
  target: Extract<ContainerTarget, { kind: 'kube' }>,
  env: Record<string, string | undefined>,
  runner: CommandRunner,
): Promise<ContainerState> {
  const args = ['get', 'pod', target.pod, '--output=json', ...namespaceArgs(target)];
  const result = await runner.run('kubectl', args, { timeoutMs: 30_000, env: env });
  if (result.code !== 0)
    throw new SourceError(`kubectl get pod ${target.pod} failed: ${firstLine(result.stderr)}`);
  const pod = JSON.parse(result.stdout) as { status?: { containerStatuses?: KubeContainerStatus[] } };
  const statuses = pod.status?.containerStatuses ?? [];
  const status = statuses.find((candidate) => candidate.name === target.container) ?? statuses[0];
  if (status === undefined) throw new SourceError(`pod ${target.pod} has no container status yet`);
  const running = status.state?.running !== undefined;
  const terminated = status.state?.terminated ?? (running ? undefined : status.lastState?.terminated);
  return {
    running,
    ended:
      terminated === undefined
        ? null
        : `exited ${terminated.exitCode ?? '?'} (${terminated.reason ?? status.state?.waiting?.reason ?? 'terminated'})`,
    failed: !running && (terminated?.exitCode ?? 1) !== 0,
    restarts: status.restartCount ?? 0,
    startedAt: null,
    previous: !running && status.state?.terminated === undefined,
  };
}

function namespaceArgs(target: Extract<ContainerTarget, { kind: 'kube' }>): string[] {
  return target.namespace === undefined ? [] : [`--namespace=${target.namespace}`];
}

function logArgs(target: ContainerTarget, state: ContainerState, follow: boolean): [string, string[]] {
  if (target.kind === 'docker') {
    const since = state.startedAt === null ? [] : [`--since=${state.startedAt}`];
    return ['docker', ['logs', ...(follow ? ['--follow'] : []), ...since, target.container]];
  }
  const args = ['logs', target.pod, ...namespaceArgs(target)];
  if (target.container !== undefined) args.push(`--container=${target.container}`);
  if (state.previous) args.push('--previous');
  if (follow) args.push('--follow');
  return ['kubectl', args];
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
  if (target.kind === 'docker') validateContainerName(target.container);
  else {
    validatePodName(target.pod);
    if (target.namespace !== undefined) validateKubeLabel('namespace', target.namespace);
    if (target.container !== undefined) validateKubeLabel('container', target.container);
  }
  const inspect = (): Promise<ContainerState> =>
    target.kind === 'docker'
      ? inspectDocker(target.container, env, runner)
      : inspectKube(target, env, runner);
  const session = new WatchSession(options);
  const before = await inspect();
  const follow = (options.follow ?? true) && before.running;
  session.goLive(follow);
  const [program, args] = logArgs(target, before, follow);
  const invocation =
    target.kind === 'docker' ? `docker:${before.startedAt ?? ''}` : `kube:${before.restarts}`;
  const logs = followLogs(runner, program, args, env, (line) =>
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
      target.kind === 'kube' && after.failed ? await readPodEvents(target.pod, target.namespace, env) : null;
    session.end(after.ended, after.failed, Date.now(), { podEvents });
  }
  session.finish();
  const final = await session.outcome;
  return { outcome: final, exitCode: final.kind === 'failed' ? 1 : 0 };
}

/** Runs `docker logs` / `kubectl logs` (both streams are the container's log) until it ends or is stopped. */
function followLogs(
  runner: CommandRunner,
  program: string,
  args: string[],
  env: Record<string, string | undefined>,
  onLine: (line: string) => void,
): { ended: Promise<void>; stop(): void } {
  let stopped = false;
  let stop: (() => void) | null = null;
  const ended = (async () => {
    // docker replays the container's stderr on its own; kubectl's stderr is its own complaints.
    const stream = await runner.start(program, args, {
      timeoutMs: Infinity,
      env,
      label: `${program} ${args[0] ?? ''}`,
      mergeStderr: program === 'docker',
      errorLine: 'last',
    });
    stop = () => stream.stop();
    if (stopped) stream.stop();
    const splitter = new OutputLineSplitter();
    for await (const chunk of stream.chunks) splitter.push(Buffer.from(chunk)).forEach(onLine);
    splitter.end().forEach(onLine);
  })();
  return {
    ended,
    stop() {
      stopped = true;
      stop?.();
    },
  };
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}
