import { SourceError, UsageError } from '../errors.js';
import type { PodEvent, PodState } from '../fleet/types.js';
import { pickLine, type CommandRunner } from '../system/run-command.js';
import { validateKubeLabel } from './validate-names.js';

export interface KubePod {
  name: string;
  namespace: string | null;
  state: PodState;
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

async function getJson(
  runner: CommandRunner,
  args: string[],
  env: Record<string, string | undefined>,
  label: string,
): Promise<unknown> {
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
  pod: KubePod,
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
    .map((pod) => {
      const statuses = pod.status?.containerStatuses ?? [];
      const status = statuses.find((candidate) => candidate.name === container) ?? statuses[0];
      const terminated = status?.state?.terminated ?? status?.lastState?.terminated;
      return {
        name: pod.metadata?.name ?? '',
        namespace: pod.metadata?.namespace ?? null,
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
    })
    .sort((a, b) => a.name.localeCompare(b.name));
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
