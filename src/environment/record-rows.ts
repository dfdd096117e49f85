import { findRecordRows, listFolderRuns, type RecordEntry } from './parse-record.js';
import type { Distribution } from './types.js';

// RECORD's text of each distribution read from disk, beside it rather than on it: a distribution still
// prints and compares as its fields, and one built from rows (tests, snapshots) simply has none.
const recordTexts = new WeakMap<Distribution, string>();

/** Keeps the RECORD text a distribution's `files` were, or will be, cut from. */
export function keepRecordText(distribution: Distribution, text: string): void {
  recordTexts.set(distribution, text);
}

/**
 * A distribution's RECORD rows whose path holds `needle` (`.so`), in RECORD's order. One read from disk is
 * searched as text, so only the rows that hold it are cut out; one built from rows is filtered.
 */
export function findFiles(distribution: Distribution, needle: string): RecordEntry[] {
  const text = recordTexts.get(distribution);
  if (text === undefined) return distribution.files.filter(({ path }) => path.includes(needle));
  return findRecordRows(text, needle);
}

/**
 * The paths of a distribution's RECORD with each run of plain rows under one top folder given once (see
 * listFolderRuns): all a pass over top folders needs. Every path, for a distribution built from rows.
 */
export function listFileRuns(distribution: Distribution): string[] {
  const text = recordTexts.get(distribution);
  if (text === undefined) return distribution.files.map(({ path }) => path);
  return listFolderRuns(text);
}
