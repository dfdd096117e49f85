import { describeError } from '../errors.js';
import { inspectContainer, toPodState, type ContainerRuntime } from '../sources/containers/index.js';
import { openSource, type OpenedSource, type SourceIo, type SourceSpec } from '../sources/index.js';
import { listPods, readPodEvents, wantsPrevious, type PodQuery } from '../sources/kubectl.js';
import type { CommandRunner } from '../system/run-command.js';
import type { Diagnosis } from '../types/diagnosis.js';
import type { FleetInput, PodEvent, PodState } from './types.js';

/** One member to read: its name in the report, the log to open, and where its programs run. */
export interface MemberPlan {
  name: string;
  spec: SourceSpec;
  runner: CommandRunner;
  state?: PodState;
  /** The member's events; what was left out goes into `notes`. */
  events?: (notes: string[]) => Promise<PodEvent[]>;
}

export interface ReadFleetOptions {
  io: Omit<SourceIo, 'runner'>;
  /** Turns an opened log into its diagnosis (the CLI's way: signatures, the fix aimed at the member). */
  diagnose: (source: OpenedSource, plan: MemberPlan) => Promise<Diagnosis>;
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
  const notes: string[] = [];
  const events =
    plan.events === undefined
      ? []
      : await plan.events(notes).catch((error: unknown) => {
          notes.push(`events not read: ${describeError(error)}`);
          return [];
        });
  const base = {
    name: plan.name,
    state: plan.state ?? null,
    events,
    ...(notes.length === 0 ? {} : { eventsNote: notes.join('; ') }),
  };
  try {
    const source = await openSource(plan.spec, { ...options.io, runner: plan.runner });
    const diagnosis = await options.diagnose(source, plan);
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
    events: (notes) => readPodEvents(pod, runner, env, notes),
    spec: {
      kind: 'kube',
      pod: pod.name,
      ...(pod.namespace === null ? {} : { namespace: pod.namespace }),
      ...(query.container === undefined ? {} : { container: query.container }),
      ...(wantsPrevious(pod.state, query.previous === true) ? { previous: true } : {}),
    },
  }));
}

/** `inspect`'s word on how a container ended (OOMKilled, the exit code) as a pod's state; none if it fails. */
export async function inspectContainerState(
  runtime: ContainerRuntime,
  container: string,
  runner: CommandRunner,
  env: Record<string, string | undefined>,
): Promise<PodState | undefined> {
  try {
    return toPodState(container, await inspectContainer(runtime, container, runner, env));
  } catch {
    return undefined;
  }
}
