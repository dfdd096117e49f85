/**
 * A runtime's failure grammar: how one runtime (Python, C and C++, a GPU runtime, NCCL, Rust, Go, the
 * loader, signals, the command line) says that something failed, whatever engine runs on it. Each runtime is
 * one folder here: its grammar as data, and fixtures beside it (`fixtures/NAME.log` with `NAME.json`
 * saying what its root cause is) that `grammars.test.ts` diagnoses.
 */
export interface RuntimeGrammar {
  runtime: string;
  lines: readonly FailureLine[];
}

/**
 * One shape of failure line outside a Python traceback. One row per shape.
 */
export interface FailureLine {
  id: string;
  /** Where it is tried among all runtimes' lines (lower first): the first line a text matches decides it. */
  rank: number;
  pattern: RegExp;
  /** A fatal line alone proves the start failed; a non-fatal one is a candidate only beside fatal evidence. */
  fatal: boolean;
  /** Prior strength as a root cause, before signatures and wrappers are weighed. */
  strength: number;
  /** The message to report, when it is not the whole line (`what():` text, Ollama's `error="..."`). */
  message?: (m: RegExpExecArray) => string;
  /** The Python exception whose text this line is, where the line is one (`[Errno 98]` is an OSError). */
  exception?: string | ((m: RegExpExecArray) => string);
  /** A crash whenever it happens: counts even after the server became ready. */
  crash?: boolean;
  /** Also counts when logged at INFO or DEBUG: platform detection reports its failures that way. */
  quiet?: boolean;
  /**
   * The message is on the next line (Rust's `panicked at FILE:LINE:COL:` since 1.73): that line, when it
   * is not itself a failure, is the message.
   */
  messageOnNextLine?: boolean;
  /**
   * The message is the line before (ggml-sycl's `Exception caught at file:...` after the exception's own
   * text): that line, when it speaks of a failure and is not itself one, is the message.
   */
  messageOnLineBefore?: boolean;
  /**
   * The message goes on on the rows after it that match this (a table's cell wrapped at its width): each
   * one's first group is appended as it is, for the wrap cuts mid-word.
   */
  continuation?: RegExp;
  /** Fatal only where the line is not a warning: a warning that quotes an error was survived. */
  notFatalAsWarning?: boolean;
}

/** Identity: a grammar is data, typed where it is declared. */
export function defineGrammar(grammar: RuntimeGrammar): RuntimeGrammar {
  return grammar;
}
