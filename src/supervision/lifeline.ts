import { spawn } from 'node:child_process';

export interface Lifeline {
  /** The server may outlive vigil from now on (it ended, or vigil is told to leave it). */
  release(): void;
}

// A shell that waits on a pipe from vigil. The pipe ends when vigil does, even by SIGKILL (the kernel
// closes its descriptors); without "release" first, the shell ends the server's process group, politely
// and then for good. It ignores the terminal's signals, which vigil passes on itself. (dash's kill takes
// `-TERM -PGID`; `--` and `-s TERM` make it read the group as an option.)
const WATCH = `trap '' INT TERM HUP
read -r word
[ "$word" = release ] && exit 0
kill -TERM "-$1" 2>/dev/null || exit 0
sleep "$2"
kill -KILL "-$1" 2>/dev/null
exit 0`;

/**
 * Ties the server's process group to vigil's life: after `kill -9` of vigil the server does not live on as
 * an orphan holding the GPUs. A failure to start the watcher costs the guarantee, never the run.
 */
export function startLifeline(processGroup: number, graceMs: number): Lifeline {
  let released = false;
  try {
    const watcher = spawn(
      '/bin/sh',
      ['-c', WATCH, 'vigil-lifeline', String(processGroup), String(Math.ceil(graceMs / 1000))],
      {
        detached: true,
        stdio: ['pipe', 'ignore', 'ignore'],
      },
    );
    watcher.on('error', () => undefined);
    watcher.stdin.on('error', () => undefined);
    watcher.unref();
    // A net.Socket underneath: unref'd, the pipe does not keep vigil's event loop alive.
    (watcher.stdin as unknown as { unref?: () => void }).unref?.();
    return {
      release() {
        if (released) return;
        released = true;
        watcher.stdin.end('release\n');
      },
    };
  } catch {
    return { release: () => undefined };
  }
}
