import type { Diagnosis } from '../types/diagnosis.js';
import { aimFix } from '../fix/aim-fix.js';
import type { FixPlace } from '../fix/fix-action.js';
import { readEnvironmentFacts } from '../environment/read-crashed-environment.js';
import type { SourceSpec } from '../sources/index.js';

/**
 * Where the server whose log was read runs, for the fix: the container or pod it was read from, the host
 * given with --ssh, else this machine.
 */
export function placeOf(spec: SourceSpec | null, host: string | null): FixPlace {
  const on = host === null ? {} : { host };
  if (spec !== null && (spec.kind === 'docker' || spec.kind === 'podman') && spec.container !== '') {
    return { kind: 'container', runtime: spec.kind, name: spec.container, ...on };
  }
  if (spec?.kind === 'kube' && spec.pod !== '') {
    return {
      kind: 'pod',
      name: spec.pod,
      ...(spec.namespace === undefined ? {} : { namespace: spec.namespace }),
      ...on,
    };
  }
  return host === null ? { kind: 'local' } : { kind: 'ssh', host };
}

/**
 * The diagnosis with its fix aimed at the crashed environment, the place and the engine (src/fix). The
 * environment's files are read only when they are on this machine.
 */
export function aimFixAt(diagnosis: Diagnosis, place: FixPlace): Diagnosis {
  const local = place.kind === 'local';
  return aimFix(diagnosis, place, local ? readEnvironmentFacts : undefined);
}
