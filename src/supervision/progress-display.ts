import { performance } from 'node:perf_hooks';
import {
  estimateRemainingMs,
  formatDuration,
  formatProgressLine,
  type ProgressState,
  type StartRecord,
} from '../progress/index.js';
import { writeControl } from '../reporting/sanitize-output.js';
import type { OutputSink } from './supervise-server.js';

export interface ProgressDisplayOptions {
  /** Where progress goes (stderr). */
  out: OutputSink;
  /** Redraw one line in place (a terminal); otherwise print a plain line per phase. */
  redraw: boolean;
  history: readonly StartRecord[];
  /** Prefix of plain lines. */
  prefix?: string;
  redrawIntervalMs?: number;
}

export interface ProgressDisplay {
  /** Wraps a stream the server's output goes to, so the redrawn line never lands in the middle of it. */
  wrap(sink: OutputSink): OutputSink;
  update(state: ProgressState, elapsedMs: number): void;
  /** A line of vigil's own (ready, notes), above the progress line. */
  say(text: string): void;
  /** Removes the progress line and stops redrawing. */
  close(): void;
}

const CLEAR_LINE = '\r\u001b[2K';

/**
 * The progress line. On a terminal it is redrawn in place every second and wiped before any output of the
 * server, which then scrolls above it; elsewhere (a pipe, the journal) each new phase is one plain line.
 */
export function createProgressDisplay(options: ProgressDisplayOptions): ProgressDisplay {
  const prefix = options.prefix ?? 'vigil: ';
  const started = performance.now();
  let state: ProgressState | null = null;
  let drawn = false;
  let lastPhase: string | null | undefined;
  let closed = false;

  const line = (): string => {
    const elapsedMs = performance.now() - started;
    if (state === null) return `${prefix}starting · ${formatDuration(elapsedMs)}`;
    return (
      prefix + formatProgressLine(state, elapsedMs, estimateRemainingMs(state, elapsedMs, options.history))
    );
  };
  const clear = (): void => {
    if (!drawn) return;
    writeControl(options.out, CLEAR_LINE);
    drawn = false;
  };
  const draw = (): void => {
    if (closed || !options.redraw || state?.readyAtMs != null) return;
    writeControl(options.out, CLEAR_LINE);
    options.out.write(line());
    drawn = true;
  };
  const timer = options.redraw ? setInterval(draw, options.redrawIntervalMs ?? 1000) : null;
  timer?.unref();

  return {
    wrap(sink) {
      if (!options.redraw) return sink;
      return {
        write(chunk) {
          clear();
          return sink.write(chunk);
        },
      };
    },
    update(next, elapsedMs) {
      state = next;
      const phase = next.phase?.id ?? null;
      if (options.redraw) {
        draw();
        return;
      }
      if (phase === lastPhase || next.phase === null) return;
      lastPhase = phase;
      const remaining = estimateRemainingMs(next, elapsedMs, options.history);
      options.out.write(`${prefix}${formatProgressLine(next, elapsedMs, remaining)}\n`);
    },
    say(text) {
      clear();
      options.out.write(`${text}\n`);
      draw();
    },
    close() {
      closed = true;
      if (timer !== null) clearInterval(timer);
      clear();
    },
  };
}
