/** The first lines tell the engine and the format, whatever else they hold. */
export const ENGINE_HEAD = 200;
/**
 * Lines after a start, a stop or a death read with the close search: a restart's start-up and its cause
 * rarely hold a sign of death (a port in use, an assertion), and a start-up is this long at most.
 */
export const CLOSE_AFTER_EVENT = 2_000;

/** systemd starting, stopping or restarting a service: a start-up or its failure may follow. */
const SYSTEMD_SERVICE_EVENT =
  /\b(?:Start(?:ing|ed)|Stopp(?:ing|ed)|Scheduled restart|Main process exited|Deactivated|Failed)\b/;

/** Whether a line read opens close reading of what follows (besides start and death markers). */
export function opensCloseReading(line: { ident: string | null; text: string }): boolean {
  return line.ident === 'systemd' && SYSTEMD_SERVICE_EVENT.test(line.text);
}

/**
 * Which lines are read, and how closely: decided from the lines read alone, never from the state the
 * diagnosis believes the server is in. So the cost of a log does not depend on whether its start is in it
 * or its ready line known: the cheap search over the bytes is the same everywhere, the log's head and
 * end are read closely, and so are the lines a read line says may follow (a start-up after systemd's or
 * the engine's own start line; an open traceback's lines are asked for by the session).
 *
 * The two lines after each failure line were read in full until 2026-12-01, in case they continued it:
 * what continues a failure is an open traceback's (the assembler asks for those lines while one is
 * open) or holds a word that may matter, and every labelled and healthy log gives the same diagnosis
 * without them, while a log with a request error in every tenth line read three lines in full for each.
 */
export class ReadingPolicy {
  // The log's own beginning is a start-up's: a launcher's preamble and import-time warnings can put its
  // banner past the head, where only the short list would find it.
  private closeUntil = CLOSE_AFTER_EVENT;

  constructor(private readonly everyLine: boolean) {}

  /** Whether line `n` is read in full whatever it holds. */
  readsInFull(n: number): boolean {
    return this.everyLine || n <= ENGINE_HEAD;
  }

  /** Whether the lines from `n` on are searched with the close search (every line that may matter). */
  readsClosely(n: number): boolean {
    return this.everyLine || n <= this.closeUntil;
  }

  /** Line `n` said the server starts, stops or died: what follows it is read closely for a while. */
  closeAfter(n: number): void {
    this.closeUntil = Math.max(this.closeUntil, n + CLOSE_AFTER_EVENT);
  }
}
