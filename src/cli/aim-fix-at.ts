import type { Diagnosis } from '../types/diagnosis.js';
import { aimFix } from '../fix/aim-fix.js';
import type { FixPlace } from '../fix/fix-action.js';
import { readEnvironmentFacts } from '../environment/read-crashed-environment.js';
import type { SourceOwner, SourceSpec } from '../sources/index.js';

/**
 * Where the server whose log was read runs, for the fix: the container or pod it was read from, the host
 * given with --ssh, else this machine.
 */
export function placeOf(spec: SourceSpec | null, host: string | null, owned: SourceOwner = {}): FixPlace {
  const on = host === null ? {} : { host };
  if (spec !== null && (spec.kind === 'docker' || spec.kind === 'podman') && spec.container !== '') {
    const compose = owned.compose === undefined ? {} : { compose: owned.compose };
    return { kind: 'container', runtime: spec.kind, name: spec.container, ...compose, ...on };
  }
  if (spec?.kind === 'kube' && spec.pod !== '') {
    return {
      kind: 'pod',
      name: spec.pod,
      ...(spec.namespace === undefined ? {} : { namespace: spec.namespace }),
      ...(owned.owner === undefined ? {} : { owner: owned.owner }),
      ...on,
    };
  }
  return host === null ? { kind: 'local' } : { kind: 'ssh', host };
}

/**
 * The place with what owns it (a compose service, a pod's workload), looked up only when a container or pod
 * has a fix to aim: the lookup runs a program (inspect, kubectl get) a log with no finding does not need.
 */
export async function withOwner(
  place: FixPlace,
  diagnosis: Diagnosis,
  lookup: () => Promise<SourceOwner>,
): Promise<FixPlace> {
  if (diagnosis.signature === null) return place;
  if (place.kind === 'container' && place.compose === undefined) {
    const { compose } = await lookup();
    return compose === undefined ? place : { ...place, compose };
  }
  if (place.kind === 'pod' && place.owner === undefined) {
    const { owner } = await lookup();
    return owner === undefined ? place : { ...place, owner };
  }
  return place;
}

/**
 * The diagnosis with its fix aimed at the crashed environment, the place and the engine (src/fix). The
 * environment's files are read only when they are on this machine.
 */
export function aimFixAt(diagnosis: Diagnosis, place: FixPlace): Diagnosis {
  const local = place.kind === 'local';
  return aimFix(diagnosis, place, local ? readEnvironmentFacts : undefined);
}
