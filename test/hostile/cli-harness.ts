import { spawn } from 'node:child_process';
import { chmod, mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { constants, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { expect, onTestFinished } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  stdin?: Uint8Array | string | Readable;
  cwd?: string;
}

const ROOT = resolve(import.meta.dirname, '../..');

/** The environment a test run sees: no colour, no debug traces, unless a test sets them. */
function baseEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...extra };
}

/** Runs `vigil ARGV` in-process through runCli, the path bin.ts takes, with captured output. */
export async function runVigil(argv: string[], options: RunOptions = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: { write: (text: string) => (stdout += text), isTTY: false },
    stderr: { write: (text: string) => (stderr += text), isTTY: false },
    stdin:
      options.stdin instanceof Readable
        ? options.stdin
        : Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]),
    env: baseEnv(options.env),
    cwd: options.cwd ?? process.cwd(),
  });
  return { code, stdout, stderr };
}

export interface SpawnResult extends CliResult {
  /** Peak resident memory of the vigil process, in bytes. */
  maxRssBytes: number;
  /** The signal that ended the process, if one did. */
  signal: NodeJS.Signals | null;
}

// Records the peak RSS when the process exits, without touching vigil's code.
const RSS_REPORTER =
  "data:text/javascript,import{writeFileSync}from'node:fs';process.on('exit',()=>{if(process.env.VIGIL_TEST_RSS_FILE)writeFileSync(process.env.VIGIL_TEST_RSS_FILE,String(process.resourceUsage().maxRSS*1024))})";

/**
 * Runs `vigil ARGV` as a real process: node + tsx on src/cli/bin.ts, so the test sees the current source
 * without a build. `node` is called by its absolute path, so PATH can be set to anything.
 */
export async function spawnVigil(argv: string[], options: RunOptions = {}): Promise<SpawnResult> {
  const dir = await tempDir();
  const rssFile = join(dir, 'max-rss');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', RSS_REPORTER, join(ROOT, 'src/cli/bin.ts'), ...argv],
    {
      cwd: options.cwd ?? ROOT,
      env: baseEnv({ ...options.env, VIGIL_TEST_RSS_FILE: rssFile }),
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: 120_000,
    },
  );
  if (options.stdin instanceof Readable) options.stdin.pipe(child.stdin);
  else child.stdin.end(options.stdin ?? '');
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
  const { code, signal } = await new Promise<{ code: number; signal: NodeJS.Signals | null }>(
    (done, fail) => {
      child.on('error', fail);
      // A signal reads as a shell would show it: 128 + its number.
      child.on('close', (status, signal) =>
        done({ code: status ?? (signal === null ? -1 : 128 + constants.signals[signal]), signal }),
      );
    },
  );
  const maxRssBytes = Number(await readFile(rssFile, 'utf8').catch(() => 'NaN'));
  return {
    code,
    signal,
    stdout: Buffer.concat(out).toString('utf8'),
    stderr: Buffer.concat(err).toString('utf8'),
    maxRssBytes,
  };
}

/** A temporary folder removed when the test ends. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'vigil-hostile-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes files (name → contents) into a new temporary folder and returns its path. */
export async function writeFiles(files: Record<string, string | Uint8Array>): Promise<string> {
  const dir = await tempDir();
  for (const [name, contents] of Object.entries(files)) await writeFile(join(dir, name), contents);
  return dir;
}

/**
 * A folder to use as PATH holding fake programs: each prints `stderr` and exits with `status`, and records
 * that it ran in `ran-NAME`, so a test can tell whether vigil called it. With `hang`, it then sleeps a minute.
 */
export async function fakeBin(
  programs: Record<string, { stderr: string; status: number; hang?: boolean }>,
): Promise<string> {
  const dir = await tempDir();
  const bin = join(dir, 'bin');
  await mkdir(bin);
  for (const [name, { stderr, status, hang }] of Object.entries(programs)) {
    const script = [
      '#!/bin/sh',
      `echo "$@" > '${join(dir, `ran-${name}`)}'`,
      `printf '%s\\n' '${stderr.replaceAll("'", "'\\''")}' >&2`,
      hang === true ? 'exec /bin/sleep 60' : `exit ${status}`,
      '',
    ].join('\n');
    await writeFile(join(bin, name), script);
    await chmod(join(bin, name), 0o755);
  }
  return bin;
}

/** Whether the fake program NAME in the folder that `fakeBin` returned was run. */
export async function fakeRan(bin: string, name: string): Promise<boolean> {
  return readFile(join(bin, '..', `ran-${name}`)).then(
    () => true,
    () => false,
  );
}

const STACK_FRAME = /^\s+at /m;

/** stderr never shows a stack trace: no `    at ...` frames, no Node internals. */
export function expectNoTrace(stderr: string): void {
  expect(stderr, 'stderr shows a stack trace').not.toMatch(STACK_FRAME);
  expect(stderr).not.toMatch(/node:internal|\.ts:\d+:\d+\)/);
}

/** A usage or input error: exit 2 and exactly one line on stderr, which says what went wrong. */
export function expectOneLineError(result: CliResult, mentions?: RegExp): void {
  expect(result.code, `exit code (stderr: ${result.stderr})`).toBe(2);
  expectNoTrace(result.stderr);
  expect(result.stderr.trimEnd().split('\n'), `stderr: ${result.stderr}`).toHaveLength(1);
  expect(result.stderr).toMatch(/^vigil: \S/);
  if (mentions !== undefined) expect(result.stderr).toMatch(mentions);
}

/** A result (no failure, or one diagnosed), possibly with warnings: exit 0 or 1, and no trace. */
export function expectResult(result: CliResult): void {
  expect([0, 1], `exit code (stderr: ${result.stderr})`).toContain(result.code);
  expectNoTrace(result.stderr);
  expect(result.stdout.length).toBeGreaterThan(0);
}

/** Either outcome the issue allows for damaged input: one clean error line, or a result with a warning. */
export function expectErrorOrWarnedResult(result: CliResult, warning: RegExp): void {
  expectNoTrace(result.stderr);
  if (result.code === 2) {
    expectOneLineError(result);
    return;
  }
  expectResult(result);
  expect(`${result.stdout}\n${result.stderr}`, 'a partial result carries a warning').toMatch(warning);
}
