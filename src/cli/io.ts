import type { Readable } from 'node:stream';

/** Everything a command may touch of the outside world, so tests can run commands in-process. */
export interface CliIo {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  stdin: Readable;
  env: Record<string, string | undefined>;
  cwd: string;
}

/** Colour only on a terminal, never with NO_COLOR set (https://no-color.org), always with FORCE_COLOR. */
export function wantsColor(io: CliIo): boolean {
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return false;
  if (io.env.FORCE_COLOR !== undefined && io.env.FORCE_COLOR !== '0') return true;
  return io.stdout.isTTY === true && io.env.TERM !== 'dumb';
}
