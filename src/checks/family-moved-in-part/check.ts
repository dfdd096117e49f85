import { snapshotVersions } from '../../environment/diff-snapshots.js';
import { defineCheck } from '../define-check.js';
import { findPartialMoves } from './find-partial-moves.js';

/** `vigil check --against OLD.json` and `vigil diff`: a lock-step family that moved only in part. */
export default defineCheck({
  id: 'family-moved-in-part',
  severity: 'error',
  title: 'Lock-step family moved only in part',
  run: ({ previous, installed }) => {
    if (previous === null) return [];
    const now = new Map([...installed].map(([key, distribution]) => [key, distribution.version]));
    return findPartialMoves(snapshotVersions(previous), now);
  },
});
