import { openDockerLogs, openKubeLogs } from './container-logs.js';
import { openUnitJournal } from './journal/read-unit-journal.js';
import { openFiles } from './read-files.js';
import type { OpenedSource, SourceIo, SourceOptions, SourceSpec } from './types.js';

export type { OpenedSource, SourceIo, SourceOptions, SourceSpec } from './types.js';

const DEFAULT_TIMEOUT_MS = 5 * 60 * 1000;

/**
 * Opens a log source. Problems found before reading (missing file, bad name, missing journalctl) reject
 * here; problems while reading (corrupt gzip, a failing docker) throw from `chunks`. Both are SourceError
 * or UsageError with a one-line message. Read `warnings` after iterating.
 */
export function openSource(
  spec: SourceSpec,
  io: SourceIo,
  options: SourceOptions = {},
): Promise<OpenedSource> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  switch (spec.kind) {
    case 'files':
      return openFiles(spec.paths, io.stdin, { reuseChunks: options.reuseChunks === true, env: io.env });
    case 'unit':
      return openUnitJournal(spec, io.env, timeoutMs);
    case 'docker':
      return openDockerLogs(spec, io.env, timeoutMs);
    case 'kube':
      return openKubeLogs(spec, io.env, timeoutMs);
  }
}
