import { SourceError, UsageError } from '../errors.js';
import type { PodEvent, PodState } from '../fleet/types.js';
import { pickLine, type CommandRunner } from '../system/run-command.js';
import type { OpenedSource } from './types.js';
import { validateKubeLabel, validatePodName } from './validate-names.js';

// `--kube`: every kubectl command Vigil runs (logs, get pods, get pod, get events), here or over --ssh.

type Env = Record<string, string | undefined>;

export interface KubePod {
  name: string;
  namespace: string | null;
  state: PodState;
  /** The chosen container runs now (state.running). */
  running: boolean;
  /** The current container has ended (state.terminated), rather than waiting to restart. */
  endedNow: boolean;
}

export interface KubeLogSpec {
  pod: string;
  namespace?: string;
  container?: string;
  previous?: boolean;
}

function validateLogSpec(spec: KubeLogSpec): void {
  validatePodName(spec.pod);
  if (spec.namespace !== undefined) validateKubeLabel('namespace', spec.namespace);
  if (spec.container !== undefined) validateKubeLabel('container', spec.container);
}

/** The arguments of `kubectl logs`, read once or followed. */
export function kubeLogArgs(spec: KubeLogSpec & { follow?: boolean }): string[] {
  const args = ['logs', spec.pod];
  if (spec.namespace !== undefined) args.push(`--namespace=${spec.namespace}`);
  if (spec.container !== undefined) args.push(`--container=${spec.container}`);
  if (spec.previous === true) args.push('--previous');
  if (spec.follow === true) args.push('--follow');
  return args;
}

/** kubectl's own complaints go to stderr, of which the last line says what failed. */
export function kubeLogOptions(timeoutMs: number, env: Env) {
  return { timeoutMs, env, label: 'kubectl logs', errorLine: 'last' as const };
}

/** `kubectl logs POD` read once; described as "previous kubectl logs of NS/POD (container C)". */
export async function openKubeLogs(
  spec: KubeLogSpec,
  runner: CommandRunner,
  env: Env,
  timeoutMs: number,
): Promise<OpenedSource> {
  validateLogSpec(spec);
  const command = await runner.start('kubectl', kubeLogArgs(spec), kubeLogOptions(timeoutMs, env));
  return {
    chunks: command.chunks,
    describe: describeKubeLogs(spec),
    formats: ['kubectl'],
    warnings: [],
  };
}

/** What was read, for every report: `previous kubectl logs of llm/vllm-0 (container vllm)`. */
export function describeKubeLogs(spec: KubeLogSpec): string {
  const where = [spec.namespace, spec.pod].filter((part) => part !== undefined).join('/');
  const what = `${spec.previous === true ? 'previous ' : ''}kubectl logs of ${where}`;
  return spec.container === undefined ? what : `${what} (container ${spec.container})`;
}

/** `kubectl get pod POD -o json`: one pod's chosen container, for watch's verdict. */
export async function readPod(spec: KubeLogSpec, runner: CommandRunner, env: Env): Promise<KubePod> {
  validateLogSpec(spec);
  const pod = await getJson(
    runner,
    ['get', 'pod', spec.pod, '--output=json', ...scopeArgs(spec)],
    env,
    `kubectl get pod ${spec.pod}`,
  );
  const found = parsePod(pod, spec.container);
  if (found.state.container === null) throw new SourceError(`pod ${spec.pod} has no container status yet`);
  return found;
}

export interface PodQuery {
  selector: string;
  namespace?: string;
  allNamespaces?: boolean;
  container?: string;
}

// Label selectors: `app=vllm`, `tier!=web,env in (a,b)`, `!canary`. Refused outside this grammar, so a
// selector never reaches kubectl as an option.
const SELECTOR = /^[A-Za-z0-9!][A-Za-z0-9_./=!,() -]*$/;

export function validateSelector(selector: string): void {
  if (selector.length > 1024 || !SELECTOR.test(selector)) {
    throw new UsageError(
      `invalid label selector ${JSON.stringify(selector)}: use key=value pairs joined by commas, e.g. -l app=vllm`,
    );
  }
}

function scopeArgs(query: Pick<PodQuery, 'namespace' | 'allNamespaces'>): string[] {
  if (query.allNamespaces === true) return ['--all-namespaces'];
  return query.namespace === undefined ? [] : [`--namespace=${query.namespace}`];
}

async function getJson(runner: CommandRunner, args: string[], env: Env, label: string): Promise<unknown> {
  const result = await runner.run('kubectl', args, { timeoutMs: 60_000, env, label });
  if (result.code !== 0) {
    throw new SourceError(
      `${label} failed (status ${result.code}): ${pickLine(result.stderr, 'last') ?? 'no error printed'}`,
    );
  }
  try {
    return JSON.parse(result.stdout) as unknown;
  } catch (error) {
    throw new SourceError(`${label} printed no JSON list; is kubectl the real one?`, { cause: error });
  }
}

/** `kubectl get pods -l SELECTOR -o json`: every pod the selector names, with its container's state. */
export async function listPods(
  query: PodQuery,
  runner: CommandRunner,
  env: Record<string, string | undefined>,
): Promise<KubePod[]> {
  validateSelector(query.selector);
  if (query.namespace !== undefined) validateKubeLabel('namespace', query.namespace);
  if (query.container !== undefined) validateKubeLabel('container', query.container);
  const list = await getJson(
    runner,
    ['get', 'pods', `--selector=${query.selector}`, ...scopeArgs(query), '--output=json'],
    env,
    'kubectl get pods',
  );
  return parsePodList(list, query.container);
}

/** The pod's events, oldest first: probe failures, FailedScheduling, image pull errors, kills. */
export async function readPodEvents(
  pod: Pick<KubePod, 'name' | 'namespace'>,
  runner: CommandRunner,
  env: Record<string, string | undefined>,
): Promise<PodEvent[]> {
  const namespace = pod.namespace === null ? [] : [`--namespace=${pod.namespace}`];
  const list = await getJson(
    runner,
    ['get', 'events', ...namespace, `--field-selector=involvedObject.name=${pod.name}`, '--output=json'],
    env,
    'kubectl get events',
  );
  return parseEventList(list);
}

interface RawTerminated {
  reason?: string;
  exitCode?: number;
  message?: string;
}
interface RawStatus {
  name?: string;
  ready?: boolean;
  restartCount?: number;
  state?: { running?: object; waiting?: { reason?: string }; terminated?: RawTerminated };
  lastState?: { terminated?: RawTerminated };
}
interface RawPod {
  metadata?: { name?: string; namespace?: string };
  status?: { phase?: string; reason?: string; containerStatuses?: RawStatus[] };
}

/** Pure: a `kubectl get pods -o json` List (or one Pod) as pods and their chosen container's state. */
export function parsePodList(list: unknown, container?: string): KubePod[] {
  const value = list as { kind?: string; items?: RawPod[] } & RawPod;
  const items = value.kind === 'Pod' ? [value] : (value.items ?? []);
  return items
    .filter((pod) => typeof pod.metadata?.name === 'string')
    .map((pod) => parsePod(pod, container))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Pure: one Pod object as the pod and its chosen container's state (the first, without a name). */
export function parsePod(value: unknown, container?: string): KubePod {
  const pod = value as RawPod;
  const statuses = pod.status?.containerStatuses ?? [];
  const status = statuses.find((candidate) => candidate.name === container) ?? statuses[0];
  const terminated = status?.state?.terminated ?? status?.lastState?.terminated;
  return {
    name: pod.metadata?.name ?? '',
    namespace: pod.metadata?.namespace ?? null,
    running: status?.state?.running !== undefined,
    endedNow: status?.state?.terminated !== undefined,
    state: {
      phase: pod.status?.phase ?? null,
      reason: pod.status?.reason ?? null,
      container: status?.name ?? null,
      restartCount: status?.restartCount ?? 0,
      ready: status?.ready === true,
      waiting: status?.state?.waiting?.reason ?? null,
      terminated:
        terminated === undefined
          ? null
          : {
              reason: terminated.reason ?? null,
              exitCode: terminated.exitCode ?? null,
              message: terminated.message ?? null,
            },
    },
  };
}

/** Pure: a `kubectl get events -o json` List as events. */
export function parseEventList(list: unknown): PodEvent[] {
  const items =
    (
      list as {
        items?: {
          type?: string;
          reason?: string;
          message?: string;
          count?: number;
          series?: { count?: number };
        }[];
      }
    ).items ?? [];
  return items.map((event) => ({
    type: event.type ?? 'Normal',
    reason: event.reason ?? '',
    message: (event.message ?? '').trim(),
    count: event.count ?? event.series?.count ?? 1,
  }));
}

/** Which logs tell the crash: the previous container's after a restart, unless it runs a fresh start. */
export function wantsPrevious(state: PodState, asked: boolean): boolean {
  if (asked) return true;
  return state.restartCount > 0 && state.waiting !== null;
}
