import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, onTestFinished } from 'vitest';

/** The built CLI (`npm test` builds it first), run as users run it: `node dist/cli/bin.js`. */
export const BIN = resolve(import.meta.dirname, '../../dist/cli/bin.js');

/** Another user for the attacks that need one: `nobody`, when the tests run as root. */
export const OTHER_UID = 65534;
export const AS_ROOT = process.getuid?.() === 0;

export interface BinResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node dist/cli/bin.js ARGV` with a clean environment of its own (HOME and caches in `home`). */
export function runBin(
  argv: string[],
  options: { env?: Record<string, string>; cwd?: string; nodeArgs?: string[]; timeoutMs?: number } = {},
): Promise<BinResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), BIN, ...argv], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', VIGIL_CODE_CACHE: '0', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: options.timeoutMs ?? 30_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** A temporary folder removed after the test. */
export function tempDir(prefix = 'vigil-security-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The run refused with exit 2 and one line on stderr that matches `pattern`, no stack trace. */
export function expectRefused(result: BinResult, pattern: RegExp): void {
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(pattern)]);
  expect(result.code).toBe(2);
}
