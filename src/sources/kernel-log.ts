import { closeSync, openSync, readSync, constants } from 'node:fs';
import { localRunner, type CommandRunner } from '../system/run-command.js';

// The kernel's log, for run and watch to name who SIGKILLed a server (the OOM killer). Read on the host
// where the server ran: here by default.

/**
 * The kernel's recent messages, to find who killed a server: `journalctl -k` from `since`, else the ring
 * buffer in /dev/kmsg (readable by root, or where kernel.dmesg_restrict is 0). Null when neither can be
 * read. Only lines that name a kill are kept.
 */
export async function readKernelKills(
  env: Record<string, string | undefined>,
  since: Date,
  runner: CommandRunner = localRunner,
): Promise<string[] | null> {
  try {
    const result = await runner.run(
      'journalctl',
      ['-k', '--no-pager', '--output=cat', `--since=@${Math.floor(since.getTime() / 1000) - 1}`],
      { timeoutMs: 5000, env, maxBytes: 16 * 1024 * 1024 },
    );
    if (result.code === 0) return killLines(result.stdout.split('\n'));
  } catch {
    // journalctl is not installed: try the ring buffer.
  }
  return runner.host === null ? readKmsg() : null;
}

function readKmsg(): string[] | null {
  let fd: number;
  try {
    fd = openSync('/dev/kmsg', constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  const lines: string[] = [];
  const buffer = Buffer.alloc(8192);
  try {
    // One record per read; EAGAIN at the end of the buffer, EPIPE where records were overwritten.
    for (let records = 0; records < 100_000; records += 1) {
      let size: number;
      try {
        size = readSync(fd, buffer, 0, buffer.length, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EPIPE') continue;
        break;
      }
      if (size <= 0) break;
      const record = buffer.toString('utf8', 0, size);
      lines.push(record.slice(record.indexOf(';') + 1).split('\n')[0] ?? '');
    }
  } finally {
    closeSync(fd);
  }
  return killLines(lines);
}

function killLines(lines: readonly string[]): string[] {
  return lines.filter((line) => /Killed process \d+|oom-kill|Out of memory/.test(line));
}
