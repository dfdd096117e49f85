import type { CommandRunner } from '../system/run-command.js';
import { findContainerRuntime } from './containers/index.js';
import { inspectContainer } from './containers/container-runtime.js';
import { readPodOwner, type KubeOwner } from './kubectl.js';
import type { SourceSpec } from './types.js';

/** What owns the container or pod a log was read from: what a fix rebuilds or restarts. */
export interface SourceOwner {
  /** The compose project and service of a container (its labels). */
  compose?: { project: string; service: string };
  /** The workload of a pod: a Deployment (through its ReplicaSet), StatefulSet, LeaderWorkerSet… */
  owner?: KubeOwner;
}

/**
 * The owner of a container (`inspect`: its compose labels) or pod (`kubectl get pod`, and its ReplicaSet's
 * Deployment). Empty where none is known, the source is no container or pod, or the lookup fails (no
 * permission to get pods, a runtime gone): the fix then says how to find the owner.
 */
export async function findSourceOwner(
  spec: SourceSpec,
  runner: CommandRunner,
  env: Record<string, string | undefined>,
): Promise<SourceOwner> {
  try {
    if (spec.kind === 'kube') {
      if (spec.pod === '') return {};
      const owner = await readPodOwner(spec, runner, env);
      return owner === null ? {} : { owner };
    }
    if (spec.kind === 'files' || spec.kind === 'unit' || spec.container === '') return {};
    const runtime = findContainerRuntime(spec.kind);
    if (runtime === undefined) return {};
    const { compose } = await inspectContainer(runtime, spec.container, runner, env);
    return compose === null ? {} : { compose };
  } catch {
    // The fix still names the container or pod; only the rebuild or restart line is in words.
    return {};
  }
}
