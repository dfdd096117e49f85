import type { Signature } from '../signatures/define-signature.js';
import type { Diagnosis } from '../types/diagnosis.js';
import type { StartPrescanHelper } from './prescan/prescan-helper.js';

export interface DiagnoseOptions {
  /** Signatures to match; the built-in knowledge base when omitted. */
  signatures?: readonly Signature[];
  /** The systemd unit whose start/exit messages count as the service's (journal input). */
  unit?: string;
  /** Lines longer than this are cut for analysis and counted (default 64 KiB). */
  maxLineLength?: number;
  /**
   * Read every line in full, the whole log closely: the reference the faster reading is tested against
   * (the same diagnosis within the last `closeReadBytes`; before them, see there).
   */
  readEveryLine?: boolean;
  /**
   * The log's last this many bytes (default 4 MiB) wait until the log ends, and their last 4,000 lines are
   * then read closely: every line that may matter. Before them, whatever the server was doing, only signs
   * of a failure, a start or a stop are looked for: a traceback, an exception or an error-level line (not
   * one an INFO line quotes), systemd, a segmentation fault, a shutdown; the first 200 lines are read in
   * full, and the 2,000 lines after a start, a stop or a death closely. The same log costs the same whether its start is in it or not.
   */
  closeReadBytes?: number;
  /**
   * Starts a helper that searches a long log too: the same diagnosis, sooner on two cores or more. The CLI
   * passes `startPrescanThread` (system/prescan-thread.ts), a worker thread.
   */
  startHelper?: StartPrescanHelper;
}

/** An incremental diagnosis: feed bytes or lines as they arrive, read the verdict at any time. */
export interface DiagnosisSession {
  /**
   * Raw bytes or text with any chunk boundaries; lines are split on LF, CRLF and lone CR. The bytes are
   * copied at once: the caller may reuse its buffer when this returns.
   */
  push(chunk: Uint8Array | string): void;
  /**
   * Bytes written by `read` straight into the session's own buffer (no copy): `read` writes at most
   * `target.length` bytes and returns how many it wrote, 0 at the end of the log. Returns that count.
   */
  pushFrom(read: (target: Uint8Array) => number): number;
  /** One line without its newline. */
  pushLine(line: string): void;
  /** The diagnosis of what has been seen so far; the session goes on, as if never asked. */
  peek(): Diagnosis;
  /**
   * Closes what waits for more lines (a traceback's message, a process's open traceback) as the end of the
   * log would, without adding a line: for a driver that must judge a start on its silence and report before
   * it ends. Lines after it are read as after a pause that ended those tracebacks.
   */
  closePending(): void;
  /**
   * The driver asked the server to stop here (its own SIGTERM, an operator's Ctrl-C passed on): what the
   * server logs next is it unwinding, as after systemd's `Stopping`, and not a start that something outside ended.
   */
  askStop(): void;
  /** Flushes a last unterminated line and returns the final diagnosis. */
  end(): Diagnosis;
}
