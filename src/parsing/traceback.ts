import type { ParsedLine } from './parsed-line.js';

export interface Frame {
  file: string;
  line: number | null;
  function: string;
  code: string | null;
}

/** One Python traceback, reassembled from one process's lines. */
export interface Traceback {
  process: string | null;
  frames: Frame[];
  /** Exception type as printed, e.g. `torch.OutOfMemoryError`; null while the traceback is still open. */
  exception: string | null;
  message: string;
  /** The line that holds `Type: message`. */
  messageLine: ParsedLine | null;
  /** Lines that continue a multi-line message (compiler output after "Ninja build failed", ...). */
  detail: ParsedLine[];
  firstLine: number;
  /** The level of the line that opened it: a logger's WARNING says it was logged and survived. */
  level: ParsedLine['level'];
  lastLine: number;
  /** True when the excerpt started inside the traceback (no "Traceback (most recent call last):"). */
  truncated: boolean;
  /** How this exception relates to the one before it in the same process: raised from it, or while handling it. */
  chainedFrom: Traceback | null;
  chainKind: 'cause' | 'context' | null;
}

export const TRACEBACK_START = /Traceback \(most recent call last\):?\s*$/;
export const FRAME = /^\s*(?:> )?File "([^"]+)", line (\d+), in (.+?)\s*$/;
/** IPython/Colab frames: `[/path/x.py](https://...) in fn(...)` or `/path/x.py in fn(...)`. */
export const NOTEBOOK_FRAME = /^\[?(\S+\.py)\]?(?:\([^)]*\))? in ([\w<>]+)\(/;
/** IPython 8's frames: `File ~/x/linear.py:1228, in RowParallelLinear.weight_loader(self, param)`, `Cell In[5], line 3`. */
export const IPYTHON_FRAME = /^(?:File (\S+?\.py):(\d+), in ([\w.<>]+)\(|(Cell In\[\d*\]), line (\d+))/;
/** The line a notebook frame stopped at, its number after an arrow: `---> 81 raise ...`, IPython 8's `-> 1228 assert ...`. */
export const NOTEBOOK_ARROW = /^-+> ?(\d+)\s+(.*?)\s*$/;
export const CAUSE_MARKER = /^\s*The above exception was the direct cause of the following exception:?\s*$/;
export const CONTEXT_MARKER = /^\s*During handling of the above exception, another exception occurred:?\s*$/;

/** `ValueError: msg`, `torch.OutOfMemoryError: msg`, `AssertionError`, `RayTaskError(ValueError): msg`. */
export const EXCEPTION_LINE = /^([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*)(?:\([\w.]+\))?(?::\s?(.*))?$/;
// `pynvml.NVMLError_LibRmVersionMismatch`: some libraries suffix their error classes.
const EXCEPTION_NAME =
  /(?:Error|Exception|Exit|Interrupt|Fault|Failure|Timeout|Group|Iteration|Warning)(?:_[A-Za-z]\w*)?$/;
/**
 * A class named with its module path (`huggingface_hub.utils._http.OfflineModeIsEnabled: ...`,
 * `triton.runtime.errors.OutOfResources: ...`) is an exception whatever its name ends with, when a message
 * follows: log lines do not start with a module's class and a colon otherwise.
 */
const QUALIFIED_CLASS = /^(?:[a-z_][a-z0-9_]*\.){2,}[A-Z][a-z]\w*$/;
/** Under a traceback's frames, one module's name is enough (`psutil.NoSuchProcess: process no longer exists`). */
const CLASS_OF_MODULE = /^(?:[a-z_][a-z0-9_]*\.)+[A-Z][a-z]\w*$/;
const NOT_EXCEPTIONS = new Set(['Warning', 'Error', 'Note', 'Hint', 'Failure']);
/**
 * An exception as `repr` prints it, the whole line (`AssertionError()`, `ValueError('bad dtype')`): what a
 * server's `logger.exception(repr(e))` writes above its traceback (vLLM's engine loop), read as the end of a
 * traceback printed bare above it when the two interleave.
 */
const REPR_LINE = /^([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\((?:'([^']*)'|"([^"]*)"|)\)$/;

/** An exception's class without its module: `torch.OutOfMemoryError` -> `OutOfMemoryError`. */
export function lastSegment(type: string): string {
  return type.slice(type.lastIndexOf('.') + 1);
}

/**
 * The type and message if this text reads as a Python exception line; null otherwise. `underFrames`: a
 * traceback is open above it, which makes an exception of what alone would be a log line: one as `repr`
 * prints it, and a class named with one module's name.
 */
export function readExceptionLine(
  line: string,
  underFrames = false,
): { type: string; message: string } | null {
  // An issue's paste with its exception line set in bold (`**RuntimeError: ...**`).
  const text = line.length > 4 && line.startsWith('**') && line.endsWith('**') ? line.slice(2, -2) : line;
  if (text.length === 0 || text.charCodeAt(0) <= 32) return null;
  // A bare class padded with spaces (`TimeoutError      `, a terminal's copy) is still the class alone.
  const trimmed = text.length > 4096 ? text.slice(0, 4096) : text.trimEnd();
  const asRepr = underFrames && trimmed.endsWith(')') ? REPR_LINE.exec(trimmed) : null;
  if (asRepr !== null) return readRepr(asRepr);
  const m = EXCEPTION_LINE.exec(trimmed);
  if (m === null) return null;
  const type = m[1] ?? '';
  const last = lastSegment(type);
  const qualified = (underFrames ? CLASS_OF_MODULE : QUALIFIED_CLASS).test(type) && m[2];
  if ((!EXCEPTION_NAME.test(last) && !qualified) || NOT_EXCEPTIONS.has(type)) return null;
  // `Error: ShardCannotStart` is Rust's main(), `Exception: x` is Python: only bare names are ambiguous.
  if (type === 'Error') return null;
  return { type, message: (m[2] ?? '').trim() };
}

function readRepr(m: RegExpExecArray): { type: string; message: string } | null {
  const type = m[1] ?? '';
  const last = lastSegment(type);
  if (!EXCEPTION_NAME.test(last) || NOT_EXCEPTIONS.has(last) || last.endsWith('Warning')) return null;
  return { type, message: (m[2] ?? m[3] ?? '').trim() };
}

/** A header over the traceback it announces: `Exception in ASGI application`, `Exception in callback f()`. */
const ANNOUNCES_EXCEPTION = /^(?:Exception|Error) in (?:ASGI application|callback\b|thread\b)/;
export const announcesException = (text: string): boolean => ANNOUNCES_EXCEPTION.test(text);

export function isChainMarker(text: string): 'cause' | 'context' | null {
  if (CAUSE_MARKER.test(text)) return 'cause';
  if (CONTEXT_MARKER.test(text)) return 'context';
  return null;
}
