import { describeError, SourceError, UsageError } from '../errors.js';
import { openSource, type OpenedSource, type SourceIo, type SourceSpec } from '../sources/index.js';
import { listPods, readPodEvents, wantsPrevious, type PodQuery } from '../sources/kube-pods.js';
import { localRunner, type CommandRunner } from '../system/run-command.js';
import type { Diagnosis } from '../types/diagnosis.js';
import type { FleetInput, PodEvent, PodState } from './types.js';

/** One member to read: its name in the report, the log to open, and where its programs run. */
export interface MemberPlan {
  name: string;
  spec: SourceSpec;
  runner: CommandRunner;
  state?: PodState;
  events?: () => Promise<PodEvent[]>;
}

export interface ReadFleetOptions {
  io: Omit<SourceIo, 'runner'>;
  /** Turns an opened log into its diagnosis (the CLI's way: signatures, redaction later). */
  diagnose: (source: OpenedSource) => Promise<Diagnosis>;
  /** How many members are read at once; default 4. */
  concurrency?: number;
}

/** Reads every member with bounded concurrency; one that cannot be read is reported, not fatal. */
export async function readFleet(
  plans: readonly MemberPlan[],
  options: ReadFleetOptions,
): Promise<FleetInput[]> {
  const results: FleetInput[] = new Array<FleetInput>(plans.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < plans.length; index = next++) {
      const plan = plans[index];
      if (plan !== undefined) results[index] = await readMember(plan, options);
    }
  };
  const width = Math.max(1, Math.min(options.concurrency ?? 4, plans.length));
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

async function readMember(plan: MemberPlan, options: ReadFleetOptions): Promise<FleetInput> {
  const events = plan.events === undefined ? [] : await plan.events().catch(() => []);
  const base = { name: plan.name, state: plan.state ?? null, events };
  try {
    const source = await openSource(plan.spec, { ...options.io, runner: plan.runner });
    const diagnosis = await options.diagnose(source);
    return { ...base, source: source.describe, diagnosis, error: null };
  } catch (error) {
    return { ...base, source: null, diagnosis: null, error: describeError(error) };
  }
}

/** Every pod the selector names, each with its state, its events and the logs that tell its crash. */
export async function planPods(
  query: PodQuery & { previous?: boolean },
  runner: CommandRunner,
  env: Record<string, string | undefined>,
): Promise<MemberPlan[]> {
  const pods = await listPods(query, runner, env);
  return pods.map((pod) => ({
    name: query.allNamespaces === true && pod.namespace !== null ? `${pod.namespace}/${pod.name}` : pod.name,
    runner,
    state: pod.state,
    events: () => readPodEvents(pod, runner, env),
    spec: {
      kind: 'kube',
      pod: pod.name,
      ...(pod.namespace === null ? {} : { namespace: pod.namespace }),
      ...(query.container === undefined ? {} : { container: query.container }),
      ...(wantsPrevious(pod.state, query.previous === true) ? { previous: true } : {}),
    },
  }));
}

/** docker compose's containers of a project, by the label compose puts on each. */
export async function listComposeContainers(
  project: string,
  runner: CommandRunner = localRunner,
  env: Record<string, string | undefined>,
): Promise<string[]> {
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(project)) {
    throw new UsageError(
      `invalid compose project ${JSON.stringify(project)}: use lower-case letters, digits, _ and -`,
    );
  }
  const result = await runner.run(
    'docker',
    ['ps', '--all', `--filter=label=com.docker.compose.project=${project}`, '--format={{.Names}}'],
    { timeoutMs: 60_000, env, label: 'docker ps' },
  );
  if (result.code !== 0)
    throw new SourceError(
      `docker ps failed (status ${result.code}): ${result.stderr.trim().split('\n')[0] ?? ''}`,
    );
  const names = result.stdout
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .sort();
  if (names.length === 0) throw new SourceError(`docker has no containers of compose project ${project}`);
  return names;
}

/** `docker inspect`'s word on how a container ended: OOMKilled and the exit code, as a pod's state. */
export async function inspectContainerState(
  container: string,
  runner: CommandRunner,
  env: Record<string, string | undefined>,
): Promise<PodState | undefined> {
  const result = await runner.run('docker', ['inspect', '--type=container', container], {
    timeoutMs: 30_000,
    env,
  });
  if (result.code !== 0) return undefined;
  try {
    const [info] = JSON.parse(result.stdout) as {
      State?: { Running?: boolean; ExitCode?: number; OOMKilled?: boolean; Error?: string; Status?: string };
      RestartCount?: number;
    }[];
    const state = info?.State ?? {};
    const running = state.Running === true;
    return {
      phase: state.Status ?? null,
      reason: null,
      container,
      restartCount: info?.RestartCount ?? 0,
      ready: running,
      waiting: null,
      terminated: running
        ? null
        : {
            reason: state.OOMKilled === true ? 'OOMKilled' : null,
            exitCode: state.ExitCode ?? null,
            message: state.Error || null,
          },
    };
  } catch {
    return undefined;
  }
}
