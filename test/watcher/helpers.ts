import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';

export const BIN = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-watcher-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A program on PATH (a Debian package's), or null. */
export function findProgram(name: string): string | null {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  const path = found.stdout.trim();
  return found.status === 0 && path !== '' && existsSync(path) ? path : null;
}

export interface Received {
  path: string;
  body: string;
  atMs: number;
}

/** An HTTP receiver on 127.0.0.1 that keeps what it is sent; `failNext` answers 500 that many times first. */
export async function startReceiver(options: { failNext?: number } = {}): Promise<{
  url: string;
  port: number;
  received: Received[];
  failed: number;
  /** How many more requests get a 500; set it to 0 to bring the receiver back. */
  failNext: number;
}> {
  const state = { received: [] as Received[], failed: 0, failNext: options.failNext ?? 0 };
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      if (state.failNext > 0) {
        state.failNext = Math.max(0, state.failNext - 1);
        state.failed += 1;
        response.writeHead(500).end('down');
        return;
      }
      state.received.push({ path: request.url ?? '/', body, atMs: Date.now() });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return Object.assign(state, { url: `http://127.0.0.1:${port}/hook`, port });
}

/** A port nobody listens on now (for a program that takes its port on the command line). */
export async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface Started {
  child: ChildProcess;
  output(): { stdout: string; stderr: string };
  /** SIGTERM, and the exit status. */
  stop(): Promise<number | null>;
}

/** Runs the built CLI in the background (watch --follow), its output kept. */
export function startVigil(args: string[], env: Record<string, string | undefined> = {}): Started {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  onTestFinished(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return {
    child,
    output: () => ({ stdout, stderr }),
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

export const SERVER = fileURLToPath(new URL('fixtures/vllm-like-server.mjs', import.meta.url));

/** One start of the server, a real process whose output is appended to the log file, as `server >> log`. */
export function startServer(
  log: string,
  mode: 'startup-crash' | 'serve-then-die' | 'serve',
): {
  child: ChildProcess;
  exited: Promise<{ code: number | null; atMs: number }>;
} {
  const fd = openSync(log, 'a');
  const child = spawn(process.execPath, [SERVER, mode], { stdio: ['ignore', fd, fd] });
  closeSync(fd);
  onTestFinished(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const exited = new Promise<{ code: number | null; atMs: number }>((resolve) =>
    child.once('exit', (code) => resolve({ code, atMs: Date.now() })),
  );
  return { child, exited };
}

export async function waitFor(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
