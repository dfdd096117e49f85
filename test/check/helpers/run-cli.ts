import { Readable } from 'node:stream';
import { runCli } from '../../../src/cli/run-cli.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs vigil in-process with captured streams, no colour and a PATH without nvidia-smi unless given. */
export async function runVigil(
  argv: string[],
  options: { env?: Record<string, string | undefined>; cwd?: string } = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: Readable.from([]),
    env: { ...process.env, NO_COLOR: '1', VIRTUAL_ENV: undefined, ...options.env },
    cwd: options.cwd ?? process.cwd(),
  });
  return { code, stdout, stderr };
}
