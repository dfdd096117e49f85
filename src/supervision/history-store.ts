import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { StartRecord } from '../progress/index.js';
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

/** The key a start is remembered under: the command line, program first. */
export function historyKey(command: string, args: readonly string[]): string {
  return [command, ...args].join('\u0000');
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

/**
 * Adds a successful start and writes the file atomically (temp file in the same folder, then rename), so
 * two vigils finishing at once leave one whole file, never a torn one.
 */
export async function appendStart(path: string, key: string, record: StartRecord): Promise<void> {
  const history = await readHistory(path);
  const entry = history.commands[key] ?? { lastUsed: record.at, runs: [] };
  entry.runs = [...entry.runs, record].slice(-RUNS_KEPT);
  entry.lastUsed = record.at;
  history.commands[key] = entry;
  const keys = Object.keys(history.commands).sort((a, b) =>
    (history.commands[b]?.lastUsed ?? '').localeCompare(history.commands[a]?.lastUsed ?? ''),
  );
  for (const stale of keys.slice(COMMANDS_KEPT)) delete history.commands[stale];
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temp, `${JSON.stringify(history, null, 2)}\n`, { mode: 0o600 });
  await rename(temp, path);
}
