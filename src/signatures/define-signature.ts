import type { FixAction } from '../fix/fix-action.js';
import type { Category, Engine } from '../types/diagnosis.js';

/**
 * A failure signature: what a root cause looks like, what it means and how to fix it.
 * Bodies are data; patterns run only on the candidate root cause and its context, never on every line.
 */
export interface SignatureMatcher {
  /** Compared with the last dotted segment of the exception type; a RegExp is tested on the whole type. */
  exception?: string | RegExp | null;
  /** Tested on the root-cause message (and the raw line). Named groups become `{name}` in `fix`. */
  message?: RegExp;
  /** Tested on the process label, e.g. /^Worker_TP/. */
  process?: RegExp;
  /** Tested on each frame's `file:function`; one must match. */
  frames?: RegExp;
  /** Tested on the lines of the failing start near the root cause; one must match. Named groups captured too. */
  context?: RegExp;
  /**
   * Tested on the same lines as `context`, but needed by nothing: where one matches, its named groups fill
   * `{name}` (the URL a library printed a line after its exception); where none does, an action that needs
   * them is left out and `fix` is shown.
   */
  captures?: RegExp;
}

export interface Signature {
  id: string;
  title: string;
  category: Category;
  engines: Engine[];
  /** Lower-case substrings; one must occur in the candidate's message or line before patterns run. */
  keywords: string[];
  match: SignatureMatcher;
  explanation: string;
  /** Template: `{name}` takes a named group captured by `match.message`, `match.context` or `match.captures`. */
  fix: string;
  /**
   * The fix as data, rendered for where the server runs (src/fix); `{name}` captures in its values are
   * quoted when rendered. When it cannot be rendered (a capture missing), `fix` is shown.
   */
  action?: FixAction[];
  alternative?: string;
  references: string[];
  /**
   * How strongly a match should pull the diagnosis towards this candidate. Causes are strong (default 1);
   * a signature for a symptom that usually has a deeper cause uses less.
   */
  weight?: number;
  /**
   * `context`: the line matched by `match.context` is reported as the root cause instead of the candidate,
   * for causes that only an INFO line shows (the GPU's compute capability, the memory split).
   */
  blame?: 'candidate' | 'context';
  /**
   * The exception class the engine raises this message with (its source's `raise`), reported when the log
   * shows the message bare: a pasted message line, a logger line that dropped the class.
   */
  raises?: string;
}

export function defineSignature(signature: Signature): Signature {
  return signature;
}
