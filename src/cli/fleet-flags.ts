import { UsageError } from '../errors.js';
import { inspectContainerState, planPods, type MemberPlan } from '../fleet/read-fleet.js';
import { findContainerRuntime, listComposeContainers } from '../sources/containers/index.js';
import { chosenContainers, composeRuntime } from './container-flags.js';
import type { SourceSpec } from '../sources/index.js';
import { localRunner } from '../system/run-command.js';
import type { CliIo } from './io.js';
import { chooseRunners, type TransportFlags } from './transport-flags.js';

export interface FleetFlags {
  compose?: string;
  kube?: string | boolean;
  selector?: string;
  namespace?: string;
  allNamespaces?: boolean;
  container?: string;
  previous?: boolean;
  concurrency: string;
}

export interface FleetPlan {
  target: string;
  plans: MemberPlan[];
  concurrency: number;
}

/**
 * The members when the flags name a fleet: the pods of a selector, several containers or a compose
 * project, or several hosts (each read the same way); null for a single log.
 */
export async function planFleet(
  spec: SourceSpec,
  flags: FleetFlags & TransportFlags,
  io: CliIo,
): Promise<FleetPlan | null> {
  const concurrency = Number(flags.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
    throw new UsageError(`--concurrency takes 1 to 64, got "${flags.concurrency}"`);
  }
  const runners = chooseRunners(flags, io);
  const hosts = runners.map((runner) => runner.host ?? 'here');
  const runner = runners.length === 1 ? (runners[0] ?? localRunner) : localRunner;
  const env = io.env;
  if (spec.kind === 'kube' && flags.selector !== undefined) {
    if (spec.pod !== '') throw new UsageError('give --kube POD or --kube -l SELECTOR, not both');
    if (hosts.length > 1) throw new UsageError('--kube -l reads one cluster: give --ssh at most once');
    if (flags.allNamespaces === true && flags.namespace !== undefined) {
      throw new UsageError('give -n NAMESPACE or --all-namespaces, not both');
    }
    const plans = await planPods(
      {
        selector: flags.selector,
        ...(flags.namespace === undefined ? {} : { namespace: flags.namespace }),
        ...(flags.allNamespaces === true ? { allNamespaces: true } : {}),
        ...(flags.container === undefined ? {} : { container: flags.container }),
        previous: flags.previous === true,
      },
      runner,
      env,
    );
    if (plans.length === 0)
      throw new UsageError(`no pods match -l ${flags.selector}; check the selector and -n`);
    const scope =
      flags.allNamespaces === true ? 'all namespaces' : (flags.namespace ?? 'the current namespace');
    return { target: `pods ${flags.selector} in ${scope}`, plans, concurrency };
  }
  if (spec.kind === 'kube' && spec.pod === '')
    throw new UsageError('--kube needs a POD, or -l SELECTOR for many');
  if (spec.kind === 'kube' && flags.allNamespaces === true)
    throw new UsageError('--all-namespaces goes with --kube -l SELECTOR');
  const containers = chosenContainers(flags);
  if (
    findContainerRuntime(spec.kind) !== undefined &&
    ((containers?.names.length ?? 0) > 1 || flags.compose !== undefined)
  ) {
    if (flags.compose !== undefined && containers !== null)
      throw new UsageError(`give --${containers.runtime.name} NAME... or --compose PROJECT, not both`);
    const runtime = containers?.runtime ?? composeRuntime();
    if (hosts.length > 1)
      throw new UsageError('a fleet of containers is read on one host: give --ssh at most once');
    const names =
      flags.compose === undefined
        ? (containers?.names ?? [])
        : await listComposeContainers(runtime, flags.compose, runner, env);
    const plans = await Promise.all(
      names.map(async (name) => {
        const state = await inspectContainerState(runtime, name, runner, env);
        return {
          name,
          runner,
          spec: { ...spec, container: name },
          ...(state === undefined ? {} : { state }),
        };
      }),
    );
    const target =
      flags.compose === undefined ? `${names.length} containers` : `compose project ${flags.compose}`;
    return { target, plans, concurrency };
  }
  if (hosts.length > 1) {
    const plans = runners.map((host, index) => ({ name: hosts[index] ?? '', runner: host, spec }));
    return { target: `${hosts.length} hosts`, plans, concurrency };
  }
  return null;
}
