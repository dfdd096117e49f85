import { SourceError, UsageError } from '../errors.js';
import { LIMITS } from '../limits.js';
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
  /** The controller that owns the pod (metadata.ownerReferences): a ReplicaSet, StatefulSet, Job…; or null. */
  owner: KubeOwner | null;
}

export interface KubeOwner {
  kind: string;
  name: string;
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

/**
 * A read-once `kubectl logs` that prints nothing this long is stuck (a node or kubelet that does not answer;
 * kubectl itself waits forever): it is stopped, so one pod cannot hold a fleet's report for the whole timeout.
 */
const LOGS_IDLE_MS = 30_000;

/** `kubectl logs POD` read once; described as "previous kubectl logs of NS/POD (container C)". */
export async function openKubeLogs(
  spec: KubeLogSpec,
  runner: CommandRunner,
  env: Env,
  timeoutMs: number,
): Promise<OpenedSource> {
  validateLogSpec(spec);
  const command = await runner.start('kubectl', kubeLogArgs(spec), {
    ...kubeLogOptions(timeoutMs, env),
    idleTimeoutMs: LOGS_IDLE_MS,
  });
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

/** What one `kubectl get ... -o json` may print: a pod list of thousands fits many times over. */
const JSON_CAP_BYTES = 64 * 1024 * 1024;
/** A pod's events come from one call per pod: a stuck API server costs each pod this much, not minutes. */
const EVENTS_TIMEOUT_MS = 20_000;

async function getJson(
  runner: CommandRunner,
  args: string[],
  env: Env,
  label: string,
  timeoutMs = 60_000,
  capBytes = JSON_CAP_BYTES,
  overCap = 'narrow the selector',
): Promise<unknown> {
  const result = await runner.run('kubectl', args, { timeoutMs, env, label, maxBytes: capBytes });
  if (result.code !== 0) {
    throw new SourceError(
      `${label} failed (status ${result.code}): ${pickLine(result.stderr, 'last') ?? 'no error printed'}`,
    );
  }
  if (Buffer.byteLength(result.stdout) >= capBytes) {
    throw new SourceError(`${label} printed more than ${capBytes / 1024 / 1024} MB of JSON; ${overCap}`);
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

/**
 * The pod's events, oldest first: probe failures, FailedScheduling, image pull errors, kills. At most
 * LIMITS.podEvents, Warnings first; what was left out is said in `notes`.
 */
export async function readPodEvents(
  pod: Pick<KubePod, 'name' | 'namespace'>,
  runner: CommandRunner,
  env: Record<string, string | undefined>,
  notes: string[] = [],
): Promise<PodEvent[]> {
  const namespace = pod.namespace === null ? [] : [`--namespace=${pod.namespace}`];
  const list = await getJson(
    runner,
    ['get', 'events', ...namespace, `--field-selector=involvedObject.name=${pod.name}`, '--output=json'],
    env,
    'kubectl get events',
    EVENTS_TIMEOUT_MS,
    LIMITS.podEventsJsonBytes,
    'a pod has tens of events, so these are not read (kubectl describe pod shows them)',
  );
  const events = parseEventList(list);
  const kept = keepEvents(events, LIMITS.podEvents);
  if (kept.length < events.length) {
    notes.push(
      `${events.length - kept.length} of its ${events.length} events left out (Warnings kept first)`,
    );
  }
  return kept;
}

/** Pure: at most `cap` events in their order, Warnings before the rest when some must go. */
export function keepEvents(events: readonly PodEvent[], cap: number): PodEvent[] {
  if (events.length <= cap) return [...events];
  const warnings = events.filter((event) => event.type === 'Warning').slice(0, cap);
  const keep = new Set<PodEvent>(warnings);
  for (const event of events) {
    if (keep.size >= cap) break;
    keep.add(event);
  }
  return events.filter((event) => keep.has(event));
}

// kubectl's JSON is read by shape, field by field: `null`, a string or a list where an object belongs (a
// wrapper script, a proxy's error page in JSON, another API's answer) is one clear line, or a field left
// out, never an internal error.
type JsonObject = Record<string, unknown>;

function objectOf(value: unknown): JsonObject | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : null;
}

function at(value: unknown, ...path: string[]): unknown {
  let current: unknown = value;
  for (const key of path) current = objectOf(current)?.[key];
  return current;
}

function stringAt(value: unknown, ...path: string[]): string | null {
  const found = at(value, ...path);
  return typeof found === 'string' ? found : null;
}

function numberAt(value: unknown, ...path: string[]): number | null {
  const found = at(value, ...path);
  return typeof found === 'number' && Number.isFinite(found) ? found : null;
}

/** The objects of a List's `items`; throws where the answer is not a List of `what`. */
function itemsOf(list: unknown, what: string): JsonObject[] {
  const items = at(list, 'items');
  if (objectOf(list) === null || !Array.isArray(items)) {
    throw new SourceError(
      `kubectl printed ${describeJson(list)} where a List of ${what} belongs; is kubectl the real one?`,
    );
  }
  return objectsIn(items as unknown[]);
}

function objectsIn(values: unknown[]): JsonObject[] {
  const objects: JsonObject[] = [];
  for (const value of values) {
    const object = objectOf(value);
    if (object !== null) objects.push(object);
  }
  return objects;
}

function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a JSON array';
  if (typeof value !== 'object') return `a JSON ${typeof value}`;
  return 'an object without an items list';
}

/** Pure: a `kubectl get pods -o json` List (or one Pod) as pods and their chosen container's state. */
export function parsePodList(list: unknown, container?: string): KubePod[] {
  const items = stringAt(list, 'kind') === 'Pod' ? [list as JsonObject] : itemsOf(list, 'pods');
  return items
    .filter((pod) => stringAt(pod, 'metadata', 'name') !== null)
    .map((pod) => parsePod(pod, container))
    .sort((a, b) => a.name.localeCompare(b.name));
}

function terminatedOf(value: unknown): KubePod['state']['terminated'] {
  if (objectOf(value) === null) return null;
  return {
    reason: stringAt(value, 'reason'),
    exitCode: numberAt(value, 'exitCode'),
    message: stringAt(value, 'message'),
  };
}

/** Pure: one Pod object as the pod and its chosen container's state (the first, without a name). */
export function parsePod(value: unknown, container?: string): KubePod {
  if (objectOf(value) === null) {
    throw new SourceError(
      `kubectl printed ${describeJson(value)} where a Pod belongs; is kubectl the real one?`,
    );
  }
  const listed = at(value, 'status', 'containerStatuses');
  const statuses = Array.isArray(listed) ? objectsIn(listed as unknown[]) : [];
  const status = statuses.find((candidate: JsonObject) => candidate.name === container) ?? statuses[0];
  const state = at(status, 'state');
  const terminated =
    terminatedOf(at(state, 'terminated')) ?? terminatedOf(at(status, 'lastState', 'terminated'));
  return {
    name: stringAt(value, 'metadata', 'name') ?? '',
    namespace: stringAt(value, 'metadata', 'namespace'),
    owner: ownerOf(value),
    running: objectOf(at(state, 'running')) !== null,
    endedNow: objectOf(at(state, 'terminated')) !== null,
    state: {
      phase: stringAt(value, 'status', 'phase'),
      reason: stringAt(value, 'status', 'reason'),
      container: stringAt(status, 'name'),
      restartCount: numberAt(status, 'restartCount') ?? 0,
      ready: at(status, 'ready') === true,
      waiting: stringAt(state, 'waiting', 'reason'),
      terminated,
    },
  };
}

const OBJECT_NAME = /^[a-z0-9](?:[-a-z0-9.]{0,251}[a-z0-9])?$/;

/** Pure: an object's controlling owner (`controller: true`, else the first), from metadata.ownerReferences. */
export function ownerOf(value: unknown): KubeOwner | null {
  const listed = at(value, 'metadata', 'ownerReferences');
  const owners = Array.isArray(listed) ? objectsIn(listed as unknown[]) : [];
  const owner = owners.find((candidate) => candidate.controller === true) ?? owners[0];
  const kind = stringAt(owner, 'kind');
  const name = stringAt(owner, 'name');
  return kind === null || name === null || kind === '' || name === '' ? null : { kind, name };
}

/**
 * The workload a restart rolls: the pod's owner, and for a ReplicaSet the Deployment that owns it
 * (`kubectl get pod`, then `kubectl get replicaset`). A ReplicaSet with no owner is the workload itself.
 */
export async function readPodOwner(
  spec: Pick<KubeLogSpec, 'pod' | 'namespace'>,
  runner: CommandRunner,
  env: Env,
): Promise<KubeOwner | null> {
  validatePodName(spec.pod);
  if (spec.namespace !== undefined) validateKubeLabel('namespace', spec.namespace);
  const scope = scopeArgs(spec);
  const pod = await getJson(
    runner,
    ['get', 'pod', spec.pod, '--output=json', ...scope],
    env,
    `kubectl get pod ${spec.pod}`,
    EVENTS_TIMEOUT_MS,
  );
  const owner = ownerOf(pod);
  // The name came from kubectl: one that is no object name is never passed back as an argument.
  if (owner?.kind !== 'ReplicaSet' || !OBJECT_NAME.test(owner.name)) return owner;
  const replicaSet = await getJson(
    runner,
    ['get', 'replicaset', owner.name, '--output=json', ...scope],
    env,
    `kubectl get replicaset ${owner.name}`,
    EVENTS_TIMEOUT_MS,
  );
  return ownerOf(replicaSet) ?? owner;
}

/** Pure: a `kubectl get events -o json` List as events. */
export function parseEventList(list: unknown): PodEvent[] {
  return itemsOf(list, 'events').map((event) => ({
    type: stringAt(event, 'type') ?? 'Normal',
    reason: stringAt(event, 'reason') ?? '',
    message: (stringAt(event, 'message') ?? '').trim(),
    count: numberAt(event, 'count') ?? numberAt(event, 'series', 'count') ?? 1,
  }));
}

/** Which logs tell the crash: the previous container's after a restart, unless it runs a fresh start. */
export function wantsPrevious(state: PodState, asked: boolean): boolean {
  if (asked) return true;
  return state.restartCount > 0 && state.waiting !== null;
}
