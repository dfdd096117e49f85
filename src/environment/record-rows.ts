import { findRecordRows, listFolderRuns, type RecordEntry } from './parse-record.js';
import type { Distribution } from './types.js';

/**
 * A distribution's RECORD rows whose path holds `needle` (`.so`), in RECORD's order. One read from disk is
 * searched as text, so only the rows that hold it are cut out; one built from rows is filtered.
 */
export function findFiles(distribution: Distribution, needle: string): RecordEntry[] {
  const text = distribution.record;
  if (text === undefined) return distribution.files.filter(({ path }) => path.includes(needle));
  return findRecordRows(text, needle);
}

/**
 * The paths of a distribution's RECORD with each run of plain rows under one top folder given once (see
 * listFolderRuns): all a pass over top folders needs. Every path, for a distribution built from rows.
 */
export function listFileRuns(distribution: Distribution): string[] {
  const text = distribution.record;
  if (text === undefined) return distribution.files.map(({ path }) => path);
  return listFolderRuns(text);
}
