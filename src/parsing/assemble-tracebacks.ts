import { LIMITS } from '../limits.js';
import { BoundedMap } from './bounded-map.js';
import type { ParsedLine } from './parsed-line.js';
import {
  announcesException,
  FRAME,
  IPYTHON_FRAME,
  NOTEBOOK_ARROW,
  NOTEBOOK_FRAME,
  TRACEBACK_START,
  isChainMarker,
  lastSegment,
  readExceptionLine,
  type Traceback,
} from './traceback.js';

const MAX_FRAMES = 200;
const MAX_DETAIL = 40;
/**
 * A shell's or the C library's report that the process died (`[1]  3100846 segmentation fault (core dumped)
 * python x.py`, `Killed`): never part of an exception's message, whatever came right before it.
 */
const SAYS_PROCESS_DIED = /\b(?:[Ss]egmentation fault|core dumped)\b|^(?:Killed|Aborted|Bus error)$/;
/** A traceback left open this many lines of its process without an exception line is given up. */
const STALE_AFTER = 400;
/** How many lines after a finished traceback may still be its message's rest. */
const TRAILING_KEPT = 8;

interface OpenState {
  traceback: Traceback;
  /** After the exception line: collecting continuation lines of its message. */
  closed: boolean;
  expectCode: boolean;
  lastSeen: number;
  level: ParsedLine['level'];
  /** Its place among the open ones: they are given up in the order they were opened. */
  opened: number;
  /**
   * How far the traceback itself is indented (its header's column, or its first frame's less two): a
   * traceback quoted inside an indented block (a YAML `message: |-` of Ray Serve) ends at an exception
   * line indented as far.
   */
  indent: number;
}

export type LineRole = 'traceback' | 'message' | 'other';

/**
 * Reassembles Python tracebacks per process, so eight workers printing line by line into one stream
 * still give eight whole tracebacks. Finished tracebacks go to `emit`, chained ones linked to their cause.
 */
export class TracebackAssembler {
  private readonly open = new Map<string, OpenState>();
  // Per process, what its last traceback was: capped (LIMITS.processNames), the least recent forgotten. A
  // process forgotten loses only the link from its next traceback to its last one.
  private readonly lastFinished = new BoundedMap<string, Traceback>(LIMITS.processNames, (key) => {
    this.finishedAt.delete(key);
    this.trailing.delete(key);
  });
  private readonly pendingChain = new BoundedMap<string, 'cause' | 'context'>(LIMITS.processNames);
  private readonly finishedAt = new Map<string, number>();
  private lastOpened: string | null = null;
  /** No open traceback is stale up to this line (see isBusy). */
  private noneStaleUntil = -Infinity;
  /** The open ones' last lines, least recent first (moved to the end when seen): the stale ones lead. */
  private readonly lastSeen = new Map<string, number>();
  private openedCount = 0;
  /** The last line of any traceback read. */
  private latestSeen = -Infinity;
  /** The last line of the latest traceback finished: the lines after it may be its message's rest. */
  private latestFinished = -Infinity;

  /** Lines after an exception and before a chain marker: the rest of that exception's message. */
  private readonly trailing = new Map<string, ParsedLine[]>();

  constructor(
    private readonly emit: (traceback: Traceback) => void,
    /** Called when lines are added to an emitted traceback's message. */
    private readonly amend: (traceback: Traceback) => void = () => undefined,
  ) {}

  /** Feeds one line; says whether it belonged to a traceback. */
  push(line: ParsedLine): LineRole {
    // A log where every line matters never asks isBusy: its stale tracebacks are given up here, or a
    // million processes each leaving one open keep a million (1.5 GB in `vigil run`).
    this.finishStale(line.n);
    // Journal identifiers keep systemd's own lines out of a service's traceback.
    let key = `${line.ident ?? ''}|${line.process ?? ''}`;
    // SGLang and TensorRT-LLM tag only a traceback's first line (`[ts TP0] Scheduler hit an exception:
    // Traceback ...`) and print its body bare: a bare line continues the traceback its process opened.
    if (
      line.formats.length === 0 &&
      !this.open.has(key) &&
      this.lastOpened !== null &&
      continuesBare(this.open.get(this.lastOpened), line.text)
    ) {
      key = this.lastOpened;
    }
    // A traceback's frames printed bare, its exception line tagged by its process (a pod's log where only
    // some lines carry the container's and the process's prefix): the line its last frame raises closes it.
    if (
      line.formats.length > 0 &&
      !this.open.has(key) &&
      this.lastOpened !== null &&
      raisedBy(this.open.get(this.lastOpened), line)
    ) {
      key = this.lastOpened;
    }
    const text = line.text;
    const state = this.open.get(key);

    const chain = isChainMarker(text);
    if (chain !== null) {
      if (state) this.finish(key, state);
      this.appendTrailing(key);
      this.pendingChain.set(key, chain);
      return 'traceback';
    }
    if (TRACEBACK_START.test(text)) {
      if (state) this.finish(key, state);
      this.start(key, line, false).indent = indentOf(text);
      return 'traceback';
    }
    const frame = FRAME.exec(text) ?? null;
    if (frame !== null) {
      let current = state;
      if (current === undefined || current.closed) {
        if (current) this.finish(key, current);
        current = this.start(key, line, true);
        current.indent = Math.max(0, indentOf(text) - FRAME_INDENT);
      }
      if (current.traceback.frames.length < MAX_FRAMES) {
        current.traceback.frames.push({
          file: frame[1] ?? '',
          line: Number(frame[2]),
          function: frame[3] ?? '',
          code: null,
        });
      }
      current.expectCode = true;
      this.see(key, current, line.n);
      current.traceback.lastLine = line.n;
      return 'traceback';
    }
    if (state === undefined) {
      const role = this.standaloneException(key, line);
      if (role === 'other') this.keepTrailing(key, line);
      return role;
    }
    if (line.n - state.lastSeen > STALE_AFTER) {
      this.finish(key, state);
      return 'other';
    }
    return state.closed ? this.continueMessage(key, state, line) : this.insideTraceback(key, state, line);
  }

  /** Whether a traceback is being read at line `n`; ones left open too long are given up here. */
  isBusy(n: number): boolean {
    // Asked of every line while one is open: the open ones are walked only once one of them may be stale
    // (a line seen only grows, and one opened later goes stale later), not per line and open traceback.
    // Only the stale ones are read, least recent first: many processes with a traceback open each cost no
    // walk over all of them a line.
    this.finishStale(n);
    return this.open.size > 0;
  }

  /**
   * Whether line `n` is one a reader that skips lines must give it: a traceback is being read, or `n` may be
   * the rest of a finished one's message, kept until a chain marker says so (`Cannot access gated repo ...` /
   * `Your request to access model ... has been rejected`).
   */
  wantsLine(n: number): boolean {
    return this.isBusy(n) || n - this.latestFinished <= TRAILING_KEPT;
  }

  /**
   * Whether a traceback is being printed near line `n`: one open and a line of one seen in the last
   * `within` lines. A traceback left open with no exception line (a warning's `Original traceback:`) is
   * busy for STALE_AFTER lines, but the process long since went on.
   */
  isPrintingNear(n: number, within: number): boolean {
    return this.isBusy(n) && n - this.latestSeen <= within;
  }

  /** Finishes the open tracebacks not seen for STALE_AFTER lines; cheap until one of them may be stale. */
  private finishStale(n: number): void {
    if (this.open.size === 0 || n <= this.noneStaleUntil) return;
    let oldest = Infinity;
    const stale: [string, OpenState][] = [];
    for (const [key, seen] of this.lastSeen) {
      if (n - seen <= STALE_AFTER) {
        oldest = seen;
        break;
      }
      stale.push([key, this.open.get(key) as OpenState]);
    }
    stale.sort((a, b) => a[1].opened - b[1].opened);
    for (const [key, state] of stale) this.finish(key, state);
    // With none left open, one opened from now on is seen at `n` or later: Infinity here stopped every later sweep.
    this.noneStaleUntil = (oldest === Infinity ? n : oldest) + STALE_AFTER;
  }

  /** Ends every open traceback (end of input). */
  flush(): void {
    for (const [key, state] of this.open) this.finish(key, state);
  }

  /** An exception line with no traceback open: an excerpt that kept only the last line. */
  private standaloneException(key: string, line: ParsedLine): LineRole {
    // An INFO line that reads like an exception is a server quoting one (a prompt, a retry notice).
    if (line.level === 'INFO' || line.level === 'DEBUG') return 'other';
    const exception = readExceptionLine(line.text);
    if (exception === null) return 'other';
    const state = this.start(key, line, true);
    state.traceback.exception = exception.type;
    state.traceback.message = exception.message;
    state.traceback.messageLine = line;
    state.closed = true;
    state.level = line.level;
    return 'message';
  }

  private keepTrailing(key: string, line: ParsedLine): void {
    if (!this.lastFinished.has(key) || line.text.trim() === '') return;
    const lines = this.trailing.get(key) ?? [];
    if (lines.length < TRAILING_KEPT) lines.push(line);
    this.trailing.set(key, lines);
  }

  private appendTrailing(key: string): void {
    const lines = this.trailing.get(key);
    const last = this.lastFinished.get(key);
    this.trailing.delete(key);
    if (!lines || !last || last.exception === null) return;
    last.detail.push(...lines);
    this.amend(last);
  }

  private start(key: string, line: ParsedLine, truncated: boolean): OpenState {
    this.trailing.delete(key);
    let previous = this.pendingChain.get(key);
    this.pendingChain.delete(key);
    // A traceback right after another exception of the same process, with the chain marker trimmed away.
    const finishedAt = this.finishedAt.get(key);
    if (previous === undefined && truncated && finishedAt !== undefined && line.n - finishedAt <= 3) {
      previous = 'context';
    }
    const traceback: Traceback = {
      process: line.process,
      frames: [],
      exception: null,
      message: '',
      messageLine: null,
      detail: [],
      firstLine: line.n,
      level: line.level,
      lastLine: line.n,
      truncated,
      chainedFrom: previous ? boundChain(this.lastFinished.get(key) ?? null) : null,
      chainKind: previous ?? null,
    };
    const state: OpenState = {
      traceback,
      closed: false,
      expectCode: false,
      lastSeen: line.n,
      level: line.level,
      opened: this.openedCount++,
      indent: 0,
    };
    this.open.set(key, state);
    this.see(key, state, line.n);
    this.lastOpened = key;
    return state;
  }

  private insideTraceback(key: string, state: OpenState, line: ParsedLine): LineRole {
    const text = line.text;
    const tb = state.traceback;
    this.see(key, state, line.n);
    tb.lastLine = line.n;
    const notebook = NOTEBOOK_FRAME.exec(text);
    if (notebook !== null) {
      tb.frames.push({ file: notebook[1] ?? '', line: null, function: notebook[2] ?? '', code: null });
      return 'traceback';
    }
    const ipython = IPYTHON_FRAME.exec(text);
    if (ipython !== null) {
      const [file, number, name] =
        ipython[4] === undefined ? ipython.slice(1, 4) : [ipython[4], ipython[5], '<cell>'];
      tb.frames.push({ file: file ?? '', line: Number(number), function: name ?? '', code: null });
      return 'traceback';
    }
    const arrow = NOTEBOOK_ARROW.exec(text);
    if (arrow !== null) {
      const last = tb.frames.at(-1);
      if (last && last.line === null) last.line = Number(arrow[1]);
      if (last && last.code === null && last.line === Number(arrow[1])) last.code = arrow[2] || null;
      return 'traceback';
    }
    const exception = readExceptionLine(stripGroupBars(dedent(text, state.indent)), true);
    if (exception !== null) {
      tb.exception = exception.type;
      tb.message = exception.message;
      tb.messageLine = line;
      state.closed = true;
      state.level = line.level;
      return 'message';
    }
    if (state.expectCode && /^\s/.test(text)) {
      const last = tb.frames.at(-1);
      if (last && last.code === null && !/^\s*[~^]+\s*$/.test(text)) last.code = text.trim();
      state.expectCode = false;
    }
    return 'traceback';
  }

  private continueMessage(key: string, state: OpenState, line: ParsedLine): LineRole {
    const text = line.text;
    const ends =
      text.trim() === '' ||
      state.traceback.detail.length >= MAX_DETAIL ||
      (line.level !== null && line.level !== state.level) ||
      (readExceptionLine(text) !== null && !continuesNcclMessage(state, text)) ||
      announcesException(text) ||
      SAYS_PROCESS_DIED.test(text) ||
      // A traceback drawn indented (inside a box of Rich's, a YAML block) owns only lines as far in: one
      // standing left of it is the program's next line (`WARN: retrying ...` after a client's traceback).
      standsLeftOf(state, text);
    if (ends) {
      this.finish(key, state);
      return this.standaloneException(key, line);
    }
    state.traceback.detail.push(line);
    state.traceback.lastLine = line.n;
    this.see(key, state, line.n);
    return 'message';
  }

  private see(key: string, state: OpenState, n: number): void {
    state.lastSeen = n;
    this.latestSeen = n;
    this.lastSeen.delete(key);
    this.lastSeen.set(key, n);
  }

  private finish(key: string, state: OpenState): void {
    this.open.delete(key);
    this.lastSeen.delete(key);
    if (state.traceback.exception === null) inferFromRaise(state.traceback);
    this.lastFinished.set(key, state.traceback);
    this.finishedAt.set(key, state.traceback.lastLine);
    this.latestFinished = Math.max(this.latestFinished, state.traceback.lastLine);
    this.emit(state.traceback);
  }
}

/**
 * Whether a bare line may go on with this open traceback: its body, or the message of an exception line
 * printed bare too. An exception line its process tagged (vLLM's `(APIServer pid=1) RuntimeError: ...`)
 * ends with the tagged lines, unless the bare line is indented under it as its message's rest (a build's
 * output under `RuntimeError: Error building extension 'sampling':` where only the first line was tagged):
 * what a job runner prints bare after it (`srun: error: ...`) is not its message.
 */
function continuesBare(state: OpenState | undefined, text: string): boolean {
  if (state === undefined) return false;
  if (!state.closed || (state.traceback.messageLine?.formats.length ?? 0) === 0) return true;
  return INDENTED_REST.test(text);
}

/** Lines (a blank one) between a traceback's last frame and the tagged exception line it raised. */
const RAISED_WITHIN = 2;

/** Whether `line` is the exception the open, untagged traceback's last frame raises (`raise RuntimeError(...)`). */
function raisedBy(state: OpenState | undefined, line: ParsedLine): boolean {
  if (state === undefined || state.closed || line.n - state.lastSeen > RAISED_WITHIN) return false;
  const raised = RAISE.exec(state.traceback.frames.at(-1)?.code ?? '')?.[1];
  const exception = readExceptionLine(line.text);
  return raised !== undefined && exception !== null && lastSegment(exception.type) === lastSegment(raised);
}

/**
 * torch's `DistBackendError: NCCL error in: ...` goes on with NCCL's class of it and its reason (`ncclInternalError:
 * Internal check failed.`, `Last error:`, `Attribute busid of node nic not found`): one message, not a new exception.
 */
function continuesNcclMessage(state: OpenState, text: string): boolean {
  return /\bNCCL\b/.test(state.traceback.message) && /^\s*nccl\w+Error: /.test(text);
}

/** Whether `text` stands left of an indented traceback whose exception line stood where it does. */
function standsLeftOf(state: OpenState, text: string): boolean {
  const said = state.traceback.messageLine?.text;
  return (
    state.indent > 0 && said !== undefined && indentOf(said) === state.indent && indentOf(text) < state.indent
  );
}

/** A line indented under a message: its rest, not a line of its own. */
const INDENTED_REST = /^[ \t]+\S/;

/** How far Python indents a frame's `File` line past its traceback's header. */
const FRAME_INDENT = 2;

const indentOf = (text: string): number => text.length - text.trimStart().length;

/** `text` without `indent` leading spaces, where it has exactly those (then it stands where its traceback does). */
function dedent(text: string, indent: number): string {
  if (indent === 0 || indentOf(text) !== indent) return text;
  return text.slice(indent);
}

/**
 * A log of distinct errors a line or two apart chains each to the one before: kept whole, that list holds
 * every traceback of the log (1.9 GB for 100 MB). Links past LIMITS.tracebackChain are cut; the diagnosis
 * walks far fewer.
 */
function boundChain(previous: Traceback | null): Traceback | null {
  let link = previous;
  for (let depth = 1; link !== null && depth < LIMITS.tracebackChain; depth++) link = link.chainedFrom;
  if (link !== null) link.chainedFrom = null;
  return previous;
}

/** Exception groups print nested tracebacks behind `| ` bars. */
function stripGroupBars(text: string): string {
  return text.startsWith(' ') || text.startsWith('|') ? text.replace(/^\s*(?:[|+]\s?)+/, '') : text;
}

const RAISE = /^raise\s+([\w.]+)\(\s*(?:[rbfu]{0,2}(["'])(.*?)(?:\2|$))?/;

/**
 * An excerpt cut before the exception line often still shows `raise ValueError("...")` as the last
 * frame's code: the type and the start of the message are there.
 */
function inferFromRaise(traceback: Traceback): void {
  const code = traceback.frames.at(-1)?.code;
  if (!code) return;
  // `assert actual_len >= last_group_len` raises an AssertionError; its condition is what failed.
  if (ASSERT.test(code)) {
    traceback.exception = 'AssertionError';
    traceback.message = code;
    return;
  }
  const m = RAISE.exec(code);
  if (m === null) return;
  traceback.exception = m[1] ?? null;
  traceback.message = m[3] ?? '';
}

const ASSERT = /^assert\b\s*\S/;
