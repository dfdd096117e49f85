import { dirname } from 'node:path';
import { VigilError } from '../errors.js';
import type { Diagnosis } from '../types/diagnosis.js';
import { aimFix } from '../fix/aim-fix.js';
import type { FixPlace } from '../fix/fix-action.js';
import { findCrashedEnvironment, type CrashedEnvironment, type EnvironmentFacts } from '../fix/target-fix.js';
import { markerOf, readEnvironmentFacts } from '../environment/read-crashed-environment.js';
import type { SourceOwner, SourceSpec } from '../sources/index.js';
import { FIX_FACT_FILES, mirrorRemoteEnvironment } from '../sources/remote-environment.js';
import type { CommandRunner } from '../system/run-command.js';

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
 * environment's files are read only when they are on this machine; aimFixThere reads them over --ssh.
 */
export function aimFixAt(diagnosis: Diagnosis, place: FixPlace): Diagnosis {
  const local = place.kind === 'local';
  return aimFix(diagnosis, place, local ? readEnvironmentFacts : undefined);
}

/** Where a fix is aimed, and how that place's files are reached. */
export interface FixSite {
  place: FixPlace;
  runner: CommandRunner;
  env: Record<string, string | undefined>;
}

/**
 * aimFixAt, and on --ssh's host the environment's files read there through `runner`: the same uv or pip,
 * CUDA index and conda as `check --ssh` reads. A container's or pod's files are in its image: not read.
 */
export async function aimFixThere(
  diagnosis: Diagnosis,
  place: FixPlace,
  runner: CommandRunner,
  env: Record<string, string | undefined>,
): Promise<Diagnosis> {
  const crashed = diagnosis.signature === null ? null : findCrashedEnvironment(diagnosis);
  if (place.kind !== 'ssh' || crashed === null) return aimFixAt(diagnosis, place);
  const facts = await readRemoteFacts(crashed, runner, env);
  return aimFix(diagnosis, place, facts === null ? undefined : () => facts);
}

/** The crashed environment's facts on the other host, from a copy of those few files; null when unreadable. */
async function readRemoteFacts(
  crashed: CrashedEnvironment,
  runner: CommandRunner,
  env: Record<string, string | undefined>,
): Promise<EnvironmentFacts | null> {
  // A venv holds every file asked for; a system interpreter's marker lies in its stdlib folder.
  const request = crashed.isVenv
    ? { venv: crashed.prefix }
    : { sitePackages: [crashed.sitePackages, dirname(markerOf(crashed.python))] };
  try {
    const mirror = await mirrorRemoteEnvironment(request, runner, env, FIX_FACT_FILES);
    try {
      return readEnvironmentFacts(crashed, mirror.root);
    } finally {
      await mirror.remove();
    }
  } catch (error) {
    // The folder is not there (the log came from elsewhere) or ssh failed: the fix is aimed without them.
    if (error instanceof VigilError) return null;
    throw error;
  }
}
