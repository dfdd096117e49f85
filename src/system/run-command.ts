import { spawn } from 'node:child_process';
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
  env?: NodeJS.ProcessEnv;
  input?: string;
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
    const child = spawn(program, args, {
      shell: false,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      env: options.env ?? process.env,
    });
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
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        new SourceError(
          error.code === 'ENOENT'
            ? `${program} was not found on PATH; install it or run vigil where it is available`
            : `could not run ${program}: ${error.message}`,
          { cause: error },
        ),
      );
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (timedOut) {
        reject(new SourceError(`${program} ${args.join(' ')} did not finish within ${options.timeoutMs} ms`));
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
