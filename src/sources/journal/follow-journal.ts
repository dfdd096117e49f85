import { localRunner } from '../../system/run-command.js';
import { fieldText, type JournalEntry } from './format-journal-entry.js';
import { journalArgs, journalOptions, type JournalQuery } from './journalctl-args.js';
import { parseEntries } from './parse-entries.js';

// The live half of the journald target (watch): the journal as it is now, then what comes after. The
// one-shot half, for diagnose, is read-unit-journal.ts; both build journalctl's lines in journalctl-args.ts.

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
  const args = journalArgs(query);
  if (window.afterCursor !== undefined) args.push(`--after-cursor=${window.afterCursor}`);
  else if (window.since !== undefined) args.push(`--since=${window.since}`);
  else if (window.lines !== undefined) args.push(`--lines=${window.lines}`);
  const runner = query.runner ?? localRunner;
  const stream = await runner.start('journalctl', args, { ...journalOptions(query, 300_000), okCodes: [1] });
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
    ...journalArgs(query),
    '--follow',
    ...(cursor === undefined ? ['--lines=0'] : [`--after-cursor=${cursor}`]),
  ];
  const runner = query.runner ?? localRunner;
  let stop: (() => void) | null = null;
  let stopped = false;
  const ended = (async () => {
    const stream = await runner.start(
      'journalctl',
      args,
      journalOptions(query, Infinity, 'journalctl --follow'),
    );
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
