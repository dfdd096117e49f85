import type { CommandRunner, StreamCommandOptions } from '../../system/run-command.js';
import { OutputLineSplitter } from '../split-output-lines.js';

export interface LogCommand {
  program: string;
  args: string[];
  options: StreamCommandOptions;
}

/** Runs the log command (`docker logs`, `kubectl logs`) until it ends or is stopped. */
export function followLogs(
  runner: CommandRunner,
  command: LogCommand,
  env: Record<string, string | undefined>,
  onLine: (line: string) => void,
): { ended: Promise<void>; stop(): void } {
  let stopped = false;
  let stop: (() => void) | null = null;
  const ended = (async () => {
    const stream = await runner.start(command.program, command.args, { ...command.options, env });
    stop = () => stream.stop();
    if (stopped) stream.stop();
    const splitter = new OutputLineSplitter();
    for await (const chunk of stream.chunks) splitter.push(Buffer.from(chunk)).forEach(onLine);
    splitter.end().forEach(onLine);
  })();
  return {
    ended,
    stop() {
      stopped = true;
      stop?.();
    },
  };
}

/**
 * Waits `ms`, or less when the signal aborts. Its abort listener goes when the time is up: a watch that
 * polls every 2 s for days would otherwise pile one listener on the signal per poll.
 */
export function pauseUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
