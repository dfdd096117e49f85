import {
  fieldText,
  formatJournalEntry,
  type JournalEntry,
} from '../../sources/journal/format-journal-entry.js';
import { parseEntries } from '../../sources/journal/parse-entries.js';
import { isSystemdEntry } from '../../sources/journal/track-invocations.js';
import { localRunner, type CommandRunner } from '../../system/run-command.js';
import type { ServiceRecord } from './track-invocations.js';

export interface JournalQuery {
  unit: string;
  /** Journal files to read instead of the system journal (journalctl --file). */
  files?: readonly string[];
  /** A journal folder to read instead of the system journal (journalctl -D). */
  directory?: string;
  env: Record<string, string | undefined>;
  /** Where journalctl runs: here, or on the host --ssh names. */
  runner?: CommandRunner;
}

const MISSING_HINT =
  'run vigil on the host that holds the journal, or save the log with journalctl and pass the file';

function baseArgs(query: JournalQuery): string[] {
  // `--opt=value` keeps a value that starts with '-' from being read as an option (as sources/journal does).
  const args = ['--output=json', '--no-pager', `--unit=${query.unit}`];
  for (const file of query.files ?? []) args.push(`--file=${file}`);
  if (query.directory !== undefined) args.push(`--directory=${query.directory}`);
  return args;
}

export function toServiceRecord(entry: JournalEntry): ServiceRecord {
  const systemd = isSystemdEntry(entry);
  const micros = Number(fieldText(entry, '__REALTIME_TIMESTAMP'));
  return {
    text: formatJournalEntry(entry),
    message: fieldText(entry, 'MESSAGE') ?? '',
    systemd,
    invocation: fieldText(entry, systemd ? 'INVOCATION_ID' : '_SYSTEMD_INVOCATION_ID'),
    atMs: Number.isFinite(micros) ? micros / 1000 : Date.now(),
  };
}

/**
 * What the journal holds now (since a time, or the unit's last `lines` entries), streamed entry by
 * entry: a journal of any size is read to its newest entry without holding it all. Returns the cursor of
 * the last entry.
 */
export async function readJournal(
  query: JournalQuery,
  window: { since?: string; lines?: number; afterCursor?: string },
  onEntry: (entry: JournalEntry) => void,
): Promise<string | undefined> {
  const args = baseArgs(query);
  if (window.afterCursor !== undefined) args.push(`--after-cursor=${window.afterCursor}`);
  else if (window.since !== undefined) args.push(`--since=${window.since}`);
  else if (window.lines !== undefined) args.push(`--lines=${window.lines}`);
  const runner = query.runner ?? localRunner;
  const stream = await runner.start('journalctl', args, {
    timeoutMs: 300_000,
    env: query.env,
    label: 'journalctl',
    missingHint: MISSING_HINT,
    okCodes: [1],
  });
  let cursor: string | undefined;
  const warnings: string[] = [];
  for await (const entries of parseEntries(stream.chunks, warnings)) {
    for (const entry of entries) {
      cursor = fieldText(entry, '__CURSOR') ?? cursor;
      onEntry(entry);
    }
  }
  return cursor;
}

export interface JournalFollower {
  stop(): void;
  /** Resolves when following ended: stop(), or journalctl exited on its own (the error, if any). */
  ended: Promise<void>;
}

/**
 * Follows the journal after a cursor. The system journal and a folder are followed by `journalctl -f`;
 * single files cannot be (journalctl 252 answers "Failed to get journal fd"), so they are read again every
 * `pollMs` after the last cursor.
 */
export function followJournal(
  query: JournalQuery,
  cursor: string | undefined,
  onEntry: (entry: JournalEntry) => void,
  pollMs = 500,
): JournalFollower {
  return query.files !== undefined && query.files.length > 0
    ? pollJournal(query, cursor, onEntry, pollMs)
    : tailJournal(query, cursor, onEntry);
}

function tailJournal(
  query: JournalQuery,
  cursor: string | undefined,
  onEntry: (entry: JournalEntry) => void,
): JournalFollower {
  const args = [
    ...baseArgs(query),
    '--follow',
    ...(cursor === undefined ? ['--lines=0'] : [`--after-cursor=${cursor}`]),
  ];
  const runner = query.runner ?? localRunner;
  let stop: (() => void) | null = null;
  let stopped = false;
  const ended = (async () => {
    const stream = await runner.start('journalctl', args, {
      timeoutMs: Infinity,
      env: query.env,
      label: 'journalctl --follow',
      missingHint: MISSING_HINT,
    });
    stop = () => stream.stop();
    if (stopped) stream.stop();
    for await (const entries of parseEntries(stream.chunks, [])) entries.forEach(onEntry);
  })();
  return {
    stop() {
      stopped = true;
      stop?.();
    },
    ended,
  };
}

function pollJournal(
  query: JournalQuery,
  cursor: string | undefined,
  onEntry: (entry: JournalEntry) => void,
  pollMs: number,
): JournalFollower {
  let stopped = false;
  let last = cursor;
  let wake: (() => void) | null = null;
  const ended = (async () => {
    while (!stopped) {
      last =
        (await readJournal(query, last === undefined ? {} : { afterCursor: last }, (entry) => {
          if (!stopped) onEntry(entry);
        })) ?? last;
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, pollMs);
      });
    }
  })();
  return {
    stop() {
      stopped = true;
      wake?.();
    },
    ended,
  };
}
