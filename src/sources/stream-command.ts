import { spawn } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import { SourceError } from '../errors.js';

export interface StreamCommandOptions {
  timeoutMs: number;
  env: Record<string, string | undefined>;
  /** docker logs replays the container's stderr on its own stderr: both streams are the log. */
  mergeStderr?: boolean;
  /** Which stderr line explains a failure: journalctl says it first, kubectl last (after glog noise). */
  errorLine?: 'first' | 'last';
  /** Names the command in errors, e.g. 'docker logs'; default the program. */
  label?: string;
  /** Appended to "X was not found on PATH", e.g. what to do instead. */
  missingHint?: string;
}

export interface CommandStream {
  chunks: AsyncIterable<Uint8Array>;
  /** What the command printed on stderr (bounded), once chunks are drained; for warnings on success. */
  stderrText(): string;
}

const STDERR_KEEP = 8 * 1024;

/**
 * Starts a program with an argument array (never a shell) and streams its stdout, without buffering it.
 * Resolves once the program runs, so a missing binary fails here; a non-zero exit or the timeout fails the
 * iteration, after the output that came before it. Stopping the iteration early kills the program.
 */
export async function startCommand(
  program: string,
  args: string[],
  options: StreamCommandOptions,
): Promise<CommandStream> {
  const child = spawn(program, args, { shell: false, stdio: ['ignore', 'pipe', 'pipe'], env: options.env });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(describeSpawnError(program, error, options)),
    );
  });
  // Errors after a successful spawn (a failed kill) must not crash the process; close still follows.
  child.on('error', () => undefined);

  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, options.timeoutMs);
  timer.unref();
  void exited.then(() => clearTimeout(timer));

  let head = '';
  let tail = '';
  child.stderr.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    if (head.length < STDERR_KEEP) head += text.slice(0, STDERR_KEEP - head.length);
    tail = (tail + text).slice(-STDERR_KEEP);
  });

  const output = options.mergeStderr === true ? mergeStreams(child.stdout, child.stderr) : child.stdout;
  const label = options.label ?? program;

  async function* drain(): AsyncGenerator<Uint8Array> {
    let finished = false;
    try {
      for await (const chunk of output as AsyncIterable<Buffer>) yield chunk;
      const { code, signal } = await exited;
      finished = true;
      if (timedOut) throw new SourceError(`${label} did not finish within ${options.timeoutMs / 1000} s`);
      if (signal !== null) throw new SourceError(`${label} was killed by ${signal}`);
      if (code !== 0) {
        const line = pickLine(options.errorLine === 'last' ? tail : head, options.errorLine ?? 'first');
        throw new SourceError(
          line === undefined
            ? `${label} exited with status ${code} and printed no error`
            : `${label} failed (status ${code}): ${line}`,
        );
      }
    } finally {
      if (!finished) child.kill('SIGKILL');
    }
  }
  return { chunks: drain(), stderrText: () => head };
}

/** One stream of both outputs in arrival order, with backpressure on each. */
function mergeStreams(stdout: Readable, stderr: Readable): Readable {
  const merged = new PassThrough({ highWaterMark: 1 << 20 });
  let open = 2;
  const endOne = (): void => {
    open -= 1;
    if (open === 0) merged.end();
  };
  for (const stream of [stdout, stderr]) {
    stream.pipe(merged, { end: false });
    stream.once('end', endOne);
  }
  return merged;
}

function pickLine(text: string, which: 'first' | 'last'): string | undefined {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return which === 'first' ? lines[0] : lines.at(-1);
}

function describeSpawnError(program: string, error: NodeJS.ErrnoException, options: StreamCommandOptions) {
  if (error.code === 'ENOENT') {
    const hint = options.missingHint ?? 'install it or run vigil where it is available';
    return new SourceError(`${program} was not found on PATH; ${hint}`, { cause: error });
  }
  if (error.code === 'EACCES') {
    return new SourceError(`${program} could not be run: permission denied`, { cause: error });
  }
  return new SourceError(`${program} could not be run: ${error.message}`, { cause: error });
}
