import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
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
