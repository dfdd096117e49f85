import type { CommandRunner, StreamCommandOptions } from '../../system/run-command.js';

/** Which journal to read for a unit: the system journal, or files or a folder copied from a host. */
export interface JournalQuery {
  /** The unit's full name, `vllm.service`. */
  unit: string;
  /** Journal files to read instead of the system journal (journalctl --file). */
  files?: readonly string[];
  /** A journal folder to read instead of the system journal (journalctl --directory). */
  directory?: string;
  env: Record<string, string | undefined>;
  /** Where journalctl runs: here, or on the host --ssh names. */
  runner?: CommandRunner;
}

const MISSING_HINT =
  'run vigil on the host that holds the journal, or save the log with journalctl and pass the file';

/**
 * Every journalctl command line Vigil runs for a unit begins here. `--opt=value` keeps a value that
 * starts with '-' from being read as an option. A journal read whole is read as `export` (parse-export.ts:
 * a quarter of JSON's cost in journalctl); following stays on JSON, a line per entry.
 */
export function journalArgs(
  query: Pick<JournalQuery, 'unit' | 'files' | 'directory'>,
  output: 'json' | 'export' = 'json',
): string[] {
  const args = [`--unit=${query.unit}`, `--output=${output}`, '--no-pager'];
  for (const file of query.files ?? []) args.push(`--file=${file}`);
  if (query.directory !== undefined) args.push(`--directory=${query.directory}`);
  return args;
}

export function journalOptions(
  query: Pick<JournalQuery, 'env'>,
  timeoutMs: number,
  label = 'journalctl',
): StreamCommandOptions {
  return { timeoutMs, env: query.env, label, missingHint: MISSING_HINT };
}
