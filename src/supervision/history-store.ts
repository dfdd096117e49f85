import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { StartRecord } from '../progress/index.js';
import { redactArgv } from '../redaction/index.js';
import { parseHistory, type HistoryFile } from './history-schema.js';

export type { HistoryFile } from './history-schema.js';

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

/**
 * Adds a successful start under the lock and writes the file atomically (temp file in the same folder, then
 * rename), so concurrent vigils keep every record and a reader never sees a torn file.
 */
export async function appendStart(path: string, key: string, record: StartRecord): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await withLock(path, async () => {
    const history = await readHistory(path);
    const entry = history.commands[key] ?? { lastUsed: record.at, runs: [] };
    entry.runs = [...entry.runs, record].slice(-RUNS_KEPT);
    entry.lastUsed = record.at;
    history.commands[key] = entry;
    const keys = Object.keys(history.commands).sort((a, b) =>
      (history.commands[b]?.lastUsed ?? '').localeCompare(history.commands[a]?.lastUsed ?? ''),
    );
    for (const stale of keys.slice(COMMANDS_KEPT)) delete history.commands[stale];
    const temp = `${path}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`;
    await writeFile(temp, `${JSON.stringify(history, null, 2)}\n`, { mode: 0o600 });
    await rename(temp, path);
  });
}
