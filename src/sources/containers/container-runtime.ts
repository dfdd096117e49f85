import { SourceError, UsageError } from '../../errors.js';
import type { PodState } from '../../fleet/types.js';
import { pickLine, type CommandRunner } from '../../system/run-command.js';
import type { OpenedSource } from '../types.js';
import { validateContainerName } from '../validate-names.js';

/**
 * A container runtime whose command line speaks docker's: `logs [--since] [--follow] NAME`, `inspect
 * --type=container NAME` as a JSON array with State and RestartCount, `ps --all --filter=label=…
 * --format={{.Names}}`. docker and podman both do; each is declared in its own file with what differs.
 */
export interface ContainerRuntimeDeclaration {
  /** The source kind and the flag: `docker` is `--docker NAME`. */
  name: string;
  /** The program to run, here or on the --ssh host. */
  program: string;
  /** The label compose tools put on each container of a project, for `--compose`; none: no --compose. */
  composeLabel?: string;
}

export type ContainerRuntime = Readonly<ContainerRuntimeDeclaration>;

export function defineContainerRuntime<const T extends ContainerRuntimeDeclaration>(declaration: T): T {
  return declaration;
}

export interface ContainerLogSpec {
  container: string;
  since?: string;
}

export type Env = Record<string, string | undefined>;

/**
 * The arguments of `logs`: the container's lines as it wrote them, or each after the runtime's time for it
 * (`--timestamps`, for the watcher, which tells one run from the next by it).
 */
export function containerLogArgs(
  spec: ContainerLogSpec & { follow?: boolean; timestamps?: boolean },
): string[] {
  return [
    'logs',
    ...(spec.follow === true ? ['--follow'] : []),
    ...(spec.timestamps === true ? ['--timestamps'] : []),
    ...(spec.since === undefined ? [] : [`--since=${spec.since}`]),
    spec.container,
  ];
}

/** How a `logs` stream is started: the runtime replays the container's stdout and stderr on its own two. */
export function containerLogOptions(runtime: ContainerRuntime, timeoutMs: number, env: Env) {
  return {
    timeoutMs,
    env,
    label: `${runtime.program} logs`,
    mergeStderr: true,
    errorLine: 'last' as const,
  };
}

/** `RUNTIME logs NAME` read once: both streams are the log, merged in arrival order. */
export async function openContainerLogs(
  runtime: ContainerRuntime,
  spec: ContainerLogSpec,
  runner: CommandRunner,
  env: Env,
  timeoutMs: number,
): Promise<OpenedSource> {
  validateContainerName(spec.container);
  const command = await runner.start(
    runtime.program,
    containerLogArgs(spec),
    containerLogOptions(runtime, timeoutMs, env),
  );
  return {
    chunks: command.chunks,
    describe: describeContainerLogs(runtime, spec.container),
    formats: ['docker'],
    warnings: [],
  };
}

/** What was read, for every report: `podman logs of vllm-a`. */
export function describeContainerLogs(runtime: ContainerRuntime, container: string): string {
  return `${runtime.program} logs of ${container}`;
}

/** What `inspect` says of a container, the fields watch and fleets read. */
export interface InspectedContainer {
  running: boolean;
  restarting: boolean;
  exitCode: number;
  oomKilled: boolean;
  /** When the current (or last) run began, for `logs --since`. */
  startedAt: string | null;
  /** When the last run that ended ended (the one before the current while it runs); year 1 for never. */
  finishedAt: string | null;
  /** The runtime's status word: running, exited, restarting. */
  status: string | null;
  error: string | null;
  restarts: number;
  /** The compose project and service whose container this is (its com.docker.compose.* labels), or null. */
  compose: { project: string; service: string } | null;
}

interface RawInspect {
  State?: {
    Status?: string;
    Running?: boolean;
    Restarting?: boolean;
    ExitCode?: number;
    OOMKilled?: boolean;
    StartedAt?: string;
    FinishedAt?: string;
    Error?: string;
  };
  RestartCount?: number;
  Config?: { Labels?: Record<string, unknown> | null };
}

/** The labels docker compose (and podman-compose, for compatibility) puts on each container it creates. */
const COMPOSE_PROJECT = 'com.docker.compose.project';
const COMPOSE_SERVICE = 'com.docker.compose.service';

function composeOf(labels: Record<string, unknown> | null | undefined): InspectedContainer['compose'] {
  const project = labels?.[COMPOSE_PROJECT];
  const service = labels?.[COMPOSE_SERVICE];
  return typeof project === 'string' && project !== '' && typeof service === 'string' && service !== ''
    ? { project, service }
    : null;
}

/** Pure: `inspect --type=container` output (a JSON array of one) as the fields above. */
export function parseInspect(stdout: string): InspectedContainer {
  const [info] = JSON.parse(stdout) as RawInspect[];
  const state = info?.State ?? {};
  return {
    running: state.Running === true,
    restarting: state.Restarting === true,
    exitCode: state.ExitCode ?? 0,
    oomKilled: state.OOMKilled === true,
    startedAt: state.StartedAt ?? null,
    finishedAt: state.FinishedAt ?? null,
    status: state.Status ?? null,
    error: state.Error || null,
    restarts: info?.RestartCount ?? 0,
    compose: composeOf(info?.Config?.Labels),
  };
}

/** `RUNTIME inspect --type=container NAME`; a SourceError with the runtime's line when it fails. */
export async function inspectContainer(
  runtime: ContainerRuntime,
  container: string,
  runner: CommandRunner,
  env: Env,
): Promise<InspectedContainer> {
  validateContainerName(container);
  const result = await runner.run(runtime.program, ['inspect', '--type=container', container], {
    timeoutMs: 30_000,
    env,
    label: `${runtime.program} inspect`,
  });
  if (result.code !== 0) {
    throw new SourceError(
      `${runtime.program} inspect ${container} failed: ${pickLine(result.stderr, 'first') ?? `status ${result.code}`}`,
    );
  }
  try {
    return parseInspect(result.stdout);
  } catch (error) {
    throw new SourceError(`${runtime.program} inspect ${container} printed no JSON`, { cause: error });
  }
}

/** Pure: how a container ended, as a fleet member's state (OOMKilled and the exit code). */
export function toPodState(container: string, info: InspectedContainer): PodState {
  return {
    phase: info.status,
    reason: null,
    container,
    restartCount: info.restarts,
    ready: info.running,
    waiting: null,
    terminated: info.running
      ? null
      : { reason: info.oomKilled ? 'OOMKilled' : null, exitCode: info.exitCode, message: info.error },
  };
}

/** The containers of a compose project, by the label the compose tool puts on each. */
export async function listComposeContainers(
  runtime: ContainerRuntime,
  project: string,
  runner: CommandRunner,
  env: Env,
): Promise<string[]> {
  if (runtime.composeLabel === undefined)
    throw new UsageError(`--compose is not known for ${runtime.program}`);
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(project)) {
    throw new UsageError(
      `invalid compose project ${JSON.stringify(project)}: use lower-case letters, digits, _ and -`,
    );
  }
  const result = await runner.run(
    runtime.program,
    ['ps', '--all', `--filter=label=${runtime.composeLabel}=${project}`, '--format={{.Names}}'],
    { timeoutMs: 60_000, env, label: `${runtime.program} ps` },
  );
  if (result.code !== 0)
    throw new SourceError(
      `${runtime.program} ps failed (status ${result.code}): ${pickLine(result.stderr, 'first') ?? ''}`,
    );
  const names = result.stdout
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .sort();
  if (names.length === 0)
    throw new SourceError(`${runtime.program} has no containers of compose project ${project}`);
  return names;
}
