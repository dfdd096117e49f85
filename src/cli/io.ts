import type { Readable } from 'node:stream';

/** Everything a command may touch of the outside world, so tests can run commands in-process. */
export interface CliIo {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  /** Made when first read (bin.ts): a stream on fd 0 changes it (libuv makes a pipe non-blocking). */
  stdin: Readable;
  /** 0 when `stdin` is the process's own: a log piped in is then read from the descriptor (sources/). */
  stdinFd?: number;
  env: Record<string, string | undefined>;
  cwd: string;
}

/** The columns a text report fits: COLUMNS, else the terminal's own, else 80 (a pipe or a file). */
export function terminalWidth(io: CliIo): number {
  const columns = Number(io.env.COLUMNS);
  if (Number.isInteger(columns) && columns > 0) return columns;
  const own = (io.stdout as { columns?: number }).columns;
  return io.stdout.isTTY === true && typeof own === 'number' && own > 0 ? own : 80;
}

/** Colour only on a terminal, never with NO_COLOR set (https://no-color.org), always with FORCE_COLOR. */
export function wantsColor(io: CliIo): boolean {
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return false;
  if (io.env.FORCE_COLOR !== undefined && io.env.FORCE_COLOR !== '0') return true;
  return io.stdout.isTTY === true && io.env.TERM !== 'dumb';
}
