import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
import { runCli } from '../../../src/cli/run-cli.js';
import { createDiagnosisSession } from '../../../src/diagnosis/index.js';
import {
  superviseServer,
  type SuperviseOptions,
  type SupervisionEvent,
  type SupervisionHandle,
} from '../../../src/supervision/supervise-server.js';

export const REPLAY = fileURLToPath(new URL('../fixtures/replay-log.mjs', import.meta.url));

export function logFixture(name: string): string {
  return fileURLToPath(new URL(`../fixtures/logs/${name}.log`, import.meta.url));
}

/** A temporary folder removed when the test ends. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-supervision-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export interface Captured {
  stdout: string;
  stderr: string;
  events: SupervisionEvent[];
}

/** Starts the replay fixture as a real child process under the supervisor, capturing what it prints. */
export async function superviseReplay(
  log: string,
  replayArgs: string[],
  options: Partial<SuperviseOptions> = {},
): Promise<{ handle: SupervisionHandle; captured: Captured }> {
  const captured: Captured = { stdout: '', stderr: '', events: [] };
  const decoder = (chunk: Uint8Array | string): string =>
    typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  const handle = await superviseServer({
    command: process.execPath,
    args: [REPLAY, logFixture(log), ...replayArgs],
    stdout: { write: (chunk) => (captured.stdout += decoder(chunk)) },
    stderr: { write: (chunk) => (captured.stderr += decoder(chunk)) },
    createDiagnosisSession: () => createDiagnosisSession(),
    ...options,
    onEvent: (event) => {
      captured.events.push(event);
      options.onEvent?.(event);
    },
  });
  onTestFinished(() => handle.forward('SIGKILL'));
  return { handle, captured };
}

/** Runs the CLI in-process with captured output, a temp HOME and only PATH from this environment. */
export async function vigil(
  argv: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: new PassThrough(),
    env: { PATH: process.env.PATH, HOME: tempDir(), NO_COLOR: '1', ...env },
    cwd: process.cwd(),
  });
  return { code, stdout, stderr };
}

/** A server command that replays a log fixture (REPLAY's flags: --delay, --exit, ...). */
export const replay = (log: string, ...args: string[]): string[] => [
  process.execPath,
  REPLAY,
  logFixture(log),
  ...args,
];
