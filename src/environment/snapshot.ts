import { indexDistributions } from './index-distributions.js';
import { normalizeName } from './normalize-name.js';
import type { PythonEnvironment } from './types.js';

export interface SnapshotDistribution {
  name: string;
  version: string;
  installer: string | null;
  source: string;
}

/** What `vigil snapshot` prints: each importable distribution's name, version, installer and source. */
export interface Snapshot {
  schemaVersion: 1;
  environment: { python: string | null; sitePackages: string[]; distributions: SnapshotDistribution[] };
}

export function createSnapshot(environment: PythonEnvironment): Snapshot {
  const distributions = [...indexDistributions(environment.distributions).values()]
    .map(({ name, version, installer, source }) => ({ name, version, installer, source }))
    .sort((a, b) => normalizeName(a.name).localeCompare(normalizeName(b.name)));
  return {
    schemaVersion: 1,
    environment: { python: environment.python, sitePackages: environment.sitePackages, distributions },
  };
}
