import { spawn } from 'node:child_process';
import { SourceError } from '../../errors.js';
import {
  fieldText,
  formatJournalEntry,
  type JournalEntry,
} from '../../sources/journal/format-journal-entry.js';
import { isSystemdEntry } from '../../sources/journal/track-invocations.js';
import { runCommand } from '../../system/run-command.js';
import type { ServiceRecord } from './track-invocations.js';

export interface JournalQuery {
  unit: string;
  /** Journal files to read instead of the system journal (journalctl --file). */
  files?: readonly string[];
  /** A journal folder to read instead of the system journal (journalctl -D). */
  directory?: string;
  env: Record<string, string | undefined>;
}

function baseArgs(query: JournalQuery): string[] {
  const args = ['--output=json', '--no-pager', '--unit', query.unit];
  for (const file of query.files ?? []) args.push('--file', file);
  if (query.directory !== undefined) args.push('--directory', query.directory);
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

function parseEntries(text: string): JournalEntry[] {
  const entries: JournalEntry[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      entries.push(JSON.parse(line) as JournalEntry);
    } catch {
      // journalctl prints whole JSON lines; a torn one is skipped.
    }
  }
  return entries;
}

/** What the journal holds now: since a time, or the unit's last `lines` entries. */
export async function readJournal(
  query: JournalQuery,
  window: { since?: string; lines?: number; afterCursor?: string },
): Promise<JournalEntry[]> {
  const args = baseArgs(query);
  if (window.afterCursor !== undefined) args.push('--after-cursor', window.afterCursor);
  else if (window.since !== undefined) args.push('--since', window.since);
  else if (window.lines !== undefined) args.push('--lines', String(window.lines));
  const result = await runCommand('journalctl', args, {
    timeoutMs: 300_000,
    env: query.env,
  });
  if (result.code !== 0 && result.code !== 1) {
    const reason = result.stderr.trim().split('\n')[0] ?? '';
    throw new SourceError(`journalctl ${args.join(' ')} failed (status ${result.code}): ${reason}`);
  }
  return parseEntries(result.stdout);
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
    ...(cursor === undefined ? ['--lines', '0'] : ['--after-cursor', cursor]),
  ];
  const child = spawn('journalctl', args, {
    shell: false,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: query.env,
  });
  let stopped = false;
  let pending = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => {
    const lines = (pending + text).split('\n');
    pending = lines.pop() ?? '';
    for (const entry of parseEntries(lines.join('\n'))) onEntry(entry);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < 4096) stderr += chunk.toString('utf8');
  });
  const ended = new Promise<void>((resolve, reject) => {
    child.once('error', (error) =>
      reject(
        new SourceError(`journalctl could not be run: ${error.message}; install systemd's journalctl`, {
          cause: error,
        }),
      ),
    );
    child.once('close', (code) => {
      if (stopped || code === 0) resolve();
      else
        reject(
          new SourceError(
            `journalctl --follow ended (status ${code}): ${stderr.trim().split('\n')[0] ?? ''}`,
          ),
        );
    });
  });
  return {
    stop() {
      stopped = true;
      child.kill('SIGTERM');
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
      const entries = await readJournal(query, last === undefined ? {} : { afterCursor: last });
      for (const entry of entries) {
        if (stopped) return;
        last = fieldText(entry, '__CURSOR') ?? last;
        onEntry(entry);
      }
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
