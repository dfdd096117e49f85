import { followFile } from '../../sources/follow-file.js';
import { OutputLineSplitter } from '../split-output-lines.js';
import { firstPhaseOpenedBy, nameLogStart, opensNewStart } from './split-log-starts.js';
import { WatchSession, type WatchOptions } from './watch-session.js';

export interface WatchLogOptions extends WatchOptions {
  /** The server's log file, followed by name across rotation and truncation. */
  path: string;
  pollMs?: number;
  backlogBytes?: number;
  /** Ends the follow (the watcher was asked to stop). */
  signal: AbortSignal;
  /**
   * Before ready, a start whose lines show a failure (the diagnosis of them) and then nothing for this
   * long is over (default 2 s): a file shows no exit, and its silence is the process's death.
   */
  fatalQuietMs?: number;
}

/**
 * `vigil watch --follow --log FILE`: a server that writes a plain log file (a restart loop in a script,
 * `server >> log`), followed until stopped. Each start is named by where its first line is in the file,
 * so a watcher run again finds the same starts; the start before one that begins is over, and was a
 * failure if it never became ready or its lines show one.
 */
export async function watchLog(options: WatchLogOptions): Promise<void> {
  const session = new WatchSession({
    ...options,
    continuous: true,
    describeRead: () => `log file ${options.path}`,
  });
  const emit = options.onEvent ?? ((): void => undefined);
  let invocation: string | null = null;
  let lastLineAt = Date.now();
  // The file's lines as `vigil diagnose` splits them: a lone CR (a progress bar's redraw) ends one too.
  const splitter = new OutputLineSplitter();
  const follower = await followFile(options.path, {
    pollMs: options.pollMs,
    backlogBytes: options.backlogBytes,
    onLine(fileLine, at) {
      for (const line of splitter.push(`${fileLine}\n`)) {
        // The line is read first: the current start's state (a copy of its progress) only where it may
        // begin one, not for each of the thousands of lines a second a serving server writes.
        const first = firstPhaseOpenedBy(line, options.engine ?? null);
        const state = invocation === null || first !== undefined ? session.currentState() : null;
        if (invocation === null || (first !== undefined && opensNewStart(first, state))) {
          if (state !== null && !state.ended) {
            const ready = state.progress.readyAtMs !== null;
            // A start that was ready and then logged its death failed too: a restart loop that wastes no
            // time puts the next start right behind the death, before any silence could say so.
            const died = ready && session.peekCurrent()?.verdict === 'failure';
            session.end('the log shows a new start', !ready || died, Date.now());
          }
          invocation = nameLogStart(at.file, at.offset, line);
        }
        lastLineAt = Date.now();
        session.push({ text: line, message: line, systemd: false, invocation, atMs: lastLineAt });
      }
    },
    onReopen(reason) {
      emit({ type: 'note', text: `${options.path} was ${reason}: reading it from its start` });
    },
    onWarning(text) {
      emit({ type: 'note', text });
    },
  });
  session.goLive(true);
  const quietMs = options.fatalQuietMs ?? 2000;
  let judgedQuiet = 0;
  const timer = setInterval(() => {
    const state = session.currentState();
    if (state === null || state.ended || state.failure !== null || state.progress.readyAtMs !== null) return;
    // One look per silence: a long quiet weight load is not diagnosed again every tick.
    if (Date.now() - lastLineAt < quietMs || judgedQuiet === lastLineAt) return;
    judgedQuiet = lastLineAt;
    if (session.peekCurrent()?.verdict === 'failure')
      session.end('the log went quiet after a fatal error', true, Date.now());
  }, 250);
  const stop = (): void => {
    clearInterval(timer);
    follower.stop();
  };
  if (options.signal.aborted) stop();
  else options.signal.addEventListener('abort', stop, { once: true });
  await follower.ended;
  session.finish();
}
