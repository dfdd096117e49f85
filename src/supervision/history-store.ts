import { mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { StartRecord } from '../progress/index.js';
import { checkFolders } from '../system/trusted-path.js';
import { writeFileAtomic } from '../system/write-file-atomic.js';
import { redactArgv } from '../redaction/index.js';
import { parseHistory, type HistoryFile, type StartStats } from './history-schema.js';

export type { HistoryFile, StartStats } from './history-schema.js';

const RUNS_KEPT = 10;
const COMMANDS_KEPT = 50;

/** `${XDG_STATE_HOME:-~/.local/state}/vigil/history.json`, per the XDG base directory spec. */
export function historyPath(env: Record<string, string | undefined>): string {
  const state = env.XDG_STATE_HOME;
  const base =
    state !== undefined && state.startsWith('/') ? state : join(env.HOME ?? '/root', '.local', 'state');
  return join(base, 'vigil', 'history.json');
}

/** The key a start is remembered under: the command line, program first, its secrets redacted. */
export function historyKey(command: string, args: readonly string[]): string {
  return redactArgv([command, ...args]).join('\u0000');
}

/** The file's contents; a missing or unreadable file is an empty history (it only serves the ETA). */
export async function readHistory(path: string): Promise<HistoryFile> {
  try {
    const parsed = parseHistory(JSON.parse(await readFile(path, 'utf8')));
    if (parsed !== null) return parsed;
  } catch {
    // Missing or not JSON: start afresh.
  }
  return { version: 1, commands: {} };
}

export function startsOf(history: HistoryFile, key: string): StartRecord[] {
  return (history.commands[key]?.runs ?? []).map((run) => ({
    ...run,
    engine: run.engine as StartRecord['engine'],
  }));
}

/** A lock older than this was left by a vigil that died while holding it. */
const STALE_LOCK_MS = 10_000;
const LOCK_WAIT_MS = 5_000;

/**
 * Runs `update` holding `${path}.lock` (created with O_EXCL), so that vigils finishing at once each add
 * their record: without it two read the same file and the later rename drops the other's record.
 */
async function withLock<T>(path: string, update: () => Promise<T>): Promise<T> {
  const lock = `${path}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
    try {
      await (await open(lock, 'wx', 0o600)).close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = await stat(lock).then(
        (info) => Date.now() - info.mtimeMs,
        () => 0,
      );
      if (age > STALE_LOCK_MS || Date.now() > deadline) await rm(lock, { force: true });
      else await new Promise((done) => setTimeout(done, wait * (0.5 + Math.random())));
    }
  }
  try {
    return await update();
  } finally {
    await rm(lock, { force: true });
  }
}

/** Adds a successful start: its phase times are the next start's ETA and stall bounds. */
export async function appendStart(path: string, key: string, record: StartRecord): Promise<void> {
  await updateEntry(path, key, record.at, (entry) => {
    entry.runs = [...entry.runs, record].slice(-RUNS_KEPT);
  });
}

export function statsOf(history: HistoryFile, key: string): StartStats {
  const stats = history.commands[key]?.stats;
  return stats === undefined
    ? { starts: 0, failures: {}, lastReadyAt: null }
    : { ...stats, failures: { ...stats.failures } };
}

/** Changes the command's counters (a start, a failure, a ready time) and returns them as written. */
export async function updateStats(
  path: string,
  key: string,
  change: (stats: StartStats) => void,
): Promise<StartStats> {
  let written: StartStats | null = null;
  await updateEntry(path, key, new Date().toISOString(), (entry) => {
    const stats = entry.stats ?? { starts: 0, failures: {}, lastReadyAt: null };
    change(stats);
    entry.stats = stats;
    written = stats;
  });
  return written ?? { starts: 0, failures: {}, lastReadyAt: null };
}

/**
 * Reads the file, changes one command's entry and writes it atomically (temp file in the same folder,
 * then rename), so two vigils finishing at once leave one whole file, never a torn one.
 */
function updateEntry(
  path: string,
  key: string,
  at: string,
  change: (entry: HistoryFile['commands'][string]) => void,
): Promise<void> {
  // One change at a time per file within this process: two read-modify-writes at once would lose one.
  const previous = queues.get(path) ?? Promise.resolve();
  const next = previous.then(() => writeEntry(path, key, at, change));
  const settled = next.catch(() => undefined);
  queues.set(path, settled);
  void settled.then(() => {
    if (queues.get(path) === settled) queues.delete(path);
  });
  return next;
}

const queues = new Map<string, Promise<void>>();

async function writeEntry(
  path: string,
  key: string,
  at: string,
  change: (entry: HistoryFile['commands'][string]) => void,
): Promise<void> {
  // Checked before anything is made or locked: with `sudo -E` HOME is another user's, who could swap a
  // folder on the way for a link.
  checkFolders(path, 'the start history');
  await mkdir(dirname(path), { recursive: true });
  // Across processes too: concurrent vigils each keep their record (the lock), as one process does (the queue).
  await withLock(path, () => writeLocked(path, key, at, change));
}

async function writeLocked(
  path: string,
  key: string,
  at: string,
  change: (entry: HistoryFile['commands'][string]) => void,
): Promise<void> {
  const history = await readHistory(path);
  const entry = history.commands[key] ?? { lastUsed: at, runs: [] };
  change(entry);
  entry.lastUsed = at;
  history.commands[key] = entry;
  // Newest first. The stamps are ISO 8601 in UTC, whose characters sort as their times do: compared as
  // plain strings, not with localeCompare, whose first call loads ICU's collation (about 13 ms a run).
  const lastUsed = (k: string) => history.commands[k]?.lastUsed ?? '';
  const keys = Object.keys(history.commands).sort((a, b) => compareStrings(lastUsed(b), lastUsed(a)));
  for (const stale of keys.slice(COMMANDS_KEPT)) delete history.commands[stale];
  await mkdir(dirname(path), { recursive: true });
  await writeAtomically(path, `${JSON.stringify(history, null, 2)}\n`, 0o600);
}

/**
 * Writes a whole file or none: a temp file beside it, then a rename over it, never through a folder another
 * user could swap for a link (write-file-atomic.ts).
 */
export async function writeAtomically(path: string, text: string, mode = 0o644): Promise<void> {
  await writeFileAtomic(path, text, { overwrite: true, mode });
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
