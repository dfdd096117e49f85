import { Readable } from 'node:stream';
import { runCli } from '../../src/cli/run-cli.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process with captured output and the given stdin text. */
export async function runCliCaptured(
  argv: string[],
  options: { stdin?: string | Buffer; env?: Record<string, string | undefined> } = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const stdin = Readable.from(options.stdin === undefined ? [] : [options.stdin]);
  const code = await runCli(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    cwd: process.cwd(),
  });
  return { code, stdout, stderr };
}
