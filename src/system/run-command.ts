import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import { SourceError } from '../errors.js';

export interface CommandResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunCommandOptions {
  timeoutMs: number;
  /** Cap on captured stdout, so a runaway command cannot exhaust memory. */
  maxBytes?: number;
  env?: Record<string, string | undefined>;
  input?: string;
  /** Names the command in errors, e.g. 'systemctl show'; default the program and its arguments. */
  label?: string;
}

export interface StreamCommandOptions {
  /** Limit on the whole run; Infinity for a command that follows a log until stopped. */
  timeoutMs: number;
  /** Limit on a silence: no output for this long while it is read ends it (a read-once command that hangs). */
  idleTimeoutMs?: number;
  env: Record<string, string | undefined>;
  /** docker logs replays the container's stderr on its own stderr: both streams are the log. */
  mergeStderr?: boolean;
  /** Which stderr line explains a failure: journalctl says it first, kubectl last (after glog noise). */
  errorLine?: 'first' | 'last';
  /** Names the command in errors, e.g. 'docker logs'; default the program. */
  label?: string;
  /** Appended to "X was not found on PATH", e.g. what to do instead. */
  missingHint?: string;
  /** Exit statuses that end the stream quietly besides 0 (journalctl's 1 for "no entries"). */
  okCodes?: readonly number[];
}

/** How a streamed command ended, for a runner that words failures its own way (ssh). */
export interface CommandEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stderrHead: string;
  stderrTail: string;
  /** Bytes of output that came before the end. */
  bytes: number;
}

export interface CommandStream {
  chunks: AsyncIterable<Uint8Array>;
  /** What the command printed on stderr (bounded), once chunks are drained; for warnings on success. */
  stderrText(): string;
  /** Kills the program (and what it started) now; the chunks then end without an error. */
  stop(): void;
}

/**
 * The one way Vigil starts a program: an argument array, never a local shell, a timeout, and errors in one
 * line. Injected into every reader, so the same reader runs a program here or on another host (ssh).
 */
export interface CommandRunner {
  /** Where the programs run, for reports: null for this machine, else the ssh destination. */
  readonly host: string | null;
  /** Runs to the end and captures the output; a non-zero exit is returned, not thrown. */
  run(program: string, args: string[], options: RunCommandOptions): Promise<CommandResult>;
  /** Streams stdout as it comes; a non-zero exit or the timeout fails the iteration after the output. */
  start(program: string, args: string[], options: StreamCommandOptions): Promise<CommandStream>;
}

const STDERR_KEEP = 8 * 1024;
/** After a kill, how long to wait for the pipes to close: a wrapper's orphan may hold them open. */
const CLOSE_GRACE_MS = 2000;

/** Runs programs on this machine. */
export const localRunner: CommandRunner = {
  host: null,
  run: runCommand,
  start: (program, args, options) => startCommand(program, args, options),
};

// A group of its own no longer hears the terminal's Ctrl-C: what is still running when Vigil exits is
// killed here, so no `journalctl --follow` outlives it.
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) killGroup(child);
});

/**
 * Starts the program in its own process group, so a timeout kills what it started too (a wrapper
 * script's child), and settles once it exited and its pipes closed, or a grace period after it exited
 * when an escaped grandchild keeps a pipe open.
 */
function spawnGroup(
  program: string,
  args: string[],
  stdin: 'ignore' | 'pipe',
  env: Record<string, string | undefined> | undefined,
): { child: ChildProcess; ended: Promise<{ code: number | null; signal: NodeJS.Signals | null }> } {
  const child = spawn(program, args, {
    shell: false,
    detached: true,
    stdio: [stdin, 'pipe', 'pipe'],
    env: env ?? process.env,
  });
  live.add(child);
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('close', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    });
    child.once('exit', (code, signal) => {
      const timer = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        resolve({ code, signal });
      }, CLOSE_GRACE_MS);
      timer.unref();
    });
    child.once('error', () => resolve({ code: null, signal: null }));
  });
  return { child, ended };
}

/** Kills the program's whole process group; the program alone if the group is gone. */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) {
    // The leader is gone; its group may still hold the pipes.
    if (child.pid !== undefined) tryKill(-child.pid, signal);
    return;
  }
  if (!tryKill(-child.pid, signal)) child.kill(signal);
}

function tryKill(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs a program with an argument array (never a shell) and a timeout, and captures its output.
 * A missing program becomes a SourceError naming it; a non-zero exit is returned, not thrown.
 */
export function runCommand(
  program: string,
  args: string[],
  options: RunCommandOptions,
): Promise<CommandResult> {
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    const { child, ended } = spawnGroup(
      program,
      args,
      options.input === undefined ? 'ignore' : 'pipe',
      options.env,
    );
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    child.stdout?.on('data', (chunk: Buffer) => {
      if (outBytes < maxBytes) out.push(chunk);
      outBytes += chunk.length;
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      if (err.length < 256) err.push(chunk);
    });
    // Our own timer, cleared on every ending: spawn's `timeout` outlives a program that never started.
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, options.timeoutMs);
    let failed = false;
    child.once('error', (error: NodeJS.ErrnoException) => {
      failed = true;
      clearTimeout(timer);
      reject(describeSpawnError(program, error, {}));
    });
    child.stdin?.on('error', () => undefined);
    if (options.input !== undefined) child.stdin?.end(options.input);
    void ended.then(({ code, signal }) => {
      clearTimeout(timer);
      if (failed) return;
      if (timedOut) {
        const label = options.label ?? `${program} ${args.join(' ')}`;
        reject(new SourceError(`${label} did not finish within ${formatSeconds(options.timeoutMs)}`));
        return;
      }
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
  });
}

/**
 * Starts a program with an argument array (never a shell) and streams its stdout, without buffering it.
 * Resolves once the program runs, so a missing binary fails here; a non-zero exit or the timeout fails the
 * iteration, after the output that came before it. Stopping the iteration early kills the program.
 * `explain` may word an ending its own way (ssh's exit 255); undefined keeps the usual wording.
 */
export async function startCommand(
  program: string,
  args: string[],
  options: StreamCommandOptions,
  explain?: (end: CommandEnd) => SourceError | undefined,
): Promise<CommandStream> {
  const { child, ended } = spawnGroup(program, args, 'ignore', options.env);
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(describeSpawnError(program, error, options)),
    );
  });
  // Errors after a successful spawn (a failed kill) must not crash the process; close still follows.
  child.on('error', () => undefined);
  const stdout = child.stdout as Readable;
  const stderr = child.stderr as Readable;

  let timedOut = false;
  let stopped = false;
  if (Number.isFinite(options.timeoutMs)) {
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, options.timeoutMs);
    timer.unref();
    void ended.then(() => clearTimeout(timer));
  }

  let head = '';
  let tail = '';
  stderr.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    if (head.length < STDERR_KEEP) head += text.slice(0, STDERR_KEEP - head.length);
    tail = (tail + text).slice(-STDERR_KEEP);
  });

  const output = options.mergeStderr === true ? mergeStreams(stdout, stderr) : stdout;
  const label = options.label ?? program;

  let idled = false;
  let idleTimer: NodeJS.Timeout | undefined;
  const idleMs = options.idleTimeoutMs;
  const watchIdle = (): void => {
    if (idleMs === undefined) return;
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      idled = true;
      killGroup(child);
    }, idleMs);
    idleTimer.unref();
  };

  async function* drain(): AsyncGenerator<Uint8Array> {
    let finished = false;
    let bytes = 0;
    try {
      try {
        watchIdle();
        for await (const chunk of output as AsyncIterable<Buffer>) {
          bytes += chunk.length;
          watchIdle();
          yield chunk;
        }
      } catch (error) {
        // The grace period destroyed a pipe that an escaped grandchild held: the output ends there.
        if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw error;
      }
      const { code, signal } = await ended;
      finished = true;
      clearTimeout(idleTimer);
      if (stopped) return;
      if (idled && idleMs !== undefined) {
        throw new SourceError(
          `${label} printed nothing for ${formatSeconds(idleMs)} and was stopped${bytes > 0 ? ` after ${bytes} bytes` : ''}`,
        );
      }
      if (code !== null && options.okCodes?.includes(code) === true) return;
      const own = explain?.({ code, signal, timedOut, stderrHead: head, stderrTail: tail, bytes });
      if (own !== undefined) throw own;
      if (timedOut)
        throw new SourceError(`${label} did not finish within ${formatSeconds(options.timeoutMs)}`);
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
      clearTimeout(idleTimer);
      if (!finished) killGroup(child);
    }
  }
  return {
    chunks: drain(),
    stderrText: () => head,
    stop() {
      stopped = true;
      killGroup(child);
    },
  };
}

function formatSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
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
    stream.once('close', () => {
      // A pipe destroyed after the grace period never ends; end the merged stream anyway.
      if (!stream.readableEnded) endOne();
    });
  }
  return merged;
}

/** The first or last non-blank line of a command's stderr. */
export function pickLine(text: string, which: 'first' | 'last'): string | undefined {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return which === 'first' ? lines[0] : lines.at(-1);
}

function describeSpawnError(
  program: string,
  error: NodeJS.ErrnoException,
  options: { missingHint?: string },
): SourceError {
  if (error.code === 'ENOENT') {
    const hint = options.missingHint ?? 'install it or run vigil where it is available';
    return new SourceError(`${program} was not found on PATH; ${hint}`, { cause: error });
  }
  if (error.code === 'EACCES') {
    return new SourceError(`${program} could not be run: permission denied`, { cause: error });
  }
  return new SourceError(`${program} could not be run: ${error.message}`, { cause: error });
}
