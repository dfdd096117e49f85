import { diffSnapshots, type SnapshotDiff } from '../../environment/diff-snapshots.js';
import { createSnapshot } from '../../environment/snapshot.js';
import { defineCheck } from '../define-check.js';

/** With --against: a one-line account of what changed since the snapshot, to read beside the errors. */
export default defineCheck({
  id: 'environment-changed',
  severity: 'info',
  title: 'Changed since the snapshot',
  run: ({ previous, environment }) => {
    if (previous === null) return [];
    const diff = diffSnapshots(previous, createSnapshot(environment));
    const summary = summarizeDiff(diff);
    if (summary === '') return [];
    const packages = [...diff.upgraded, ...diff.downgraded, ...diff.changed, ...diff.added, ...diff.removed];
    return [{ detail: summary, fix: null, packages: packages.map((change) => change.name) }];
  },
});

/** "upgraded: a 1 → 2; added: b 3" — empty when nothing changed. */
export function summarizeDiff(diff: SnapshotDiff): string {
  const moves = (list: { name: string; from: string; to: string }[]): string =>
    list.map((c) => `${c.name} ${c.from} → ${c.to}`).join(', ');
  const parts = [
    diff.upgraded.length > 0 ? `upgraded: ${moves(diff.upgraded)}` : '',
    diff.downgraded.length > 0 ? `downgraded: ${moves(diff.downgraded)}` : '',
    diff.changed.length > 0 ? `rebuilt or reinstalled: ${moves(diff.changed)}` : '',
    diff.added.length > 0 ? `added: ${diff.added.map((d) => `${d.name} ${d.version}`).join(', ')}` : '',
    diff.removed.length > 0 ? `removed: ${diff.removed.map((d) => `${d.name} ${d.version}`).join(', ')}` : '',
  ];
  return parts.filter((part) => part !== '').join('; ');
}
