import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { SourceError } from '../errors.js';

const FILTER_TIMEOUT_MS = 30 * 60_000;

export interface FilterOptions {
  env: Record<string, string | undefined>;
  /** The input, for errors: "logs/a.log.xz". */
  label: string;
}

/**
 * Runs a system program (xz -dc, journalctl --file) as a real subprocess, feeding it `input` on stdin when
 * given, and yields its stdout as it comes. A non-zero exit fails the iteration with the program's first
 * stderr line; stopping early kills it. The program is looked up on PATH by the caller, before opening.
 */
export async function* runFilter(
  program: string,
  args: string[],
  input: AsyncIterable<Uint8Array> | null,
  options: FilterOptions,
): AsyncGenerator<Uint8Array> {
  const child = spawn(program, args, {
    shell: false,
    stdio: [input === null ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    env: options.env,
    // A decompressor or journalctl that hangs must not hold the diagnosis for ever.
    timeout: FILTER_TIMEOUT_MS,
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>(
    (resolve) => {
      child.once('error', (error) => resolve({ code: null, signal: null, error }));
      child.once('close', (code, signal) => resolve({ code, signal }));
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 4096) stderr += chunk.toString('utf8');
  });
  if (input !== null && child.stdin !== null) {
    const feed = Readable.from(input);
    // A program that stops reading (it failed, or we stopped it) closes the pipe: that is not our error.
    child.stdin.on('error', () => undefined);
    feed.on('error', (error) => child.stdout?.destroy(error));
    feed.pipe(child.stdin);
  }
  let finished = false;
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) yield chunk;
    const { code, signal, error } = await exited;
    finished = true;
    if (error !== undefined || code !== 0) {
      const why =
        error?.message ??
        stderr.split('\n').find((line) => line.trim() !== '') ??
        (signal === null
          ? `exit status ${String(code)}`
          : `stopped after ${FILTER_TIMEOUT_MS / 60_000} minutes (${signal})`);
      throw new SourceError(`cannot read ${options.label}: ${program} failed: ${why.trim()}`);
    }
  } catch (error) {
    if (error instanceof SourceError) throw error;
    throw new SourceError(`cannot read ${options.label}: ${(error as Error).message.split('\n')[0] ?? ''}`, {
      cause: error,
    });
  } finally {
    if (!finished) child.kill('SIGTERM');
  }
}
