import { normalizeName } from './normalize-name.js';
import { compareVersions } from './pep440.js';
import type { Snapshot, SnapshotDistribution } from './snapshot.js';

export interface VersionChange {
  name: string;
  from: string;
  to: string;
}

export interface SnapshotDiff {
  upgraded: VersionChange[];
  downgraded: VersionChange[];
  /** Same version, other build or source (a +cu label that compares equal, a reinstall from a URL). */
  changed: (VersionChange & { fromSource: string; toSource: string })[];
  added: SnapshotDistribution[];
  removed: SnapshotDistribution[];
}

/** What moved between two snapshots, by normalized name, sorted by name. Pure. */
export function diffSnapshots(before: Snapshot, after: Snapshot): SnapshotDiff {
  const old = byKey(before);
  const now = byKey(after);
  const diff: SnapshotDiff = { upgraded: [], downgraded: [], changed: [], added: [], removed: [] };
  for (const [key, previous] of old) {
    const current = now.get(key);
    if (current === undefined) {
      diff.removed.push(previous);
      continue;
    }
    const change = { name: current.name, from: previous.version, to: current.version };
    const order = compareVersions(current.version, previous.version);
    if (order > 0) diff.upgraded.push(change);
    else if (order < 0) diff.downgraded.push(change);
    else if (current.version !== previous.version || current.source !== previous.source) {
      diff.changed.push({ ...change, fromSource: previous.source, toSource: current.source });
    }
  }
  for (const [key, current] of now) if (!old.has(key)) diff.added.push(current);
  return diff;
}

function byKey(snapshot: Snapshot): Map<string, SnapshotDistribution> {
  const entries = snapshot.environment.distributions.map((d) => [normalizeName(d.name), d] as const);
  return new Map([...entries].sort(([a], [b]) => a.localeCompare(b)));
}

/** name → version of a snapshot, by normalized name. */
export function snapshotVersions(snapshot: Snapshot): Map<string, string> {
  return new Map(snapshot.environment.distributions.map((d) => [normalizeName(d.name), d.version]));
}
