import { LIMITS } from '../limits.js';
import { TracebackAssembler } from '../parsing/assemble-tracebacks.js';
import type { ParsedLine } from '../parsing/parsed-line.js';
import { cleanLine } from '../parsing/clean-line.js';
import { ConsoleCopyFilter } from '../parsing/console-copy-filter.js';
import { IndentedBlock } from '../parsing/indented-block.js';
import { parseLine } from '../parsing/parse-line.js';
import { saysNothing } from './bare-raise.js';
import { announcesException, lastSegment, type Traceback } from '../parsing/traceback.js';
import { builtinSignatures } from '../signatures/index.js';
import type { Diagnosis, Engine } from '../types/diagnosis.js';
import type { DiagnoseOptions, DiagnosisSession } from './api.js';
import {
  createAttempt,
  eligibleCandidates,
  errorJustBefore,
  saysLessThan,
  WENT_ON,
  type Attempt,
} from './attempt.js';
import { buildDiagnosis } from './build-diagnosis.js';
import type { Candidate } from './candidate.js';
import {
  completeDraft,
  draftsFromTraceback,
  fingerprintDraft,
  joinMessage,
  type Draft,
} from './collect-candidates.js';
import { DraftMemo } from './draft-memo.js';
import { answerByPass } from './knowledge/any-of.js';
import { voteEngine } from './knowledge/engine-marks.js';
import { readEngineVersion } from './knowledge/engine-versions.js';
import { mayMatter } from './knowledge/may-matter.js';
import { isNoise } from './knowledge/noise.js';
import {
  exitMarkIn,
  isDeathMarker,
  isReadyMarker,
  isServerBanner,
  startMarkerOf,
} from './knowledge/markers.js';
import {
  DIED,
  isShutdownDone,
  isShutdownPhrase,
  isShutdownShaped,
  isStopRequest,
  isStopShaped,
} from './knowledge/shutdown.js';
import { ENGINE_HEAD, opensCloseReading, ReadingPolicy } from './reading-policy.js';
import { STACK_FRAME_LINE } from '../runtimes/cpp/stack-frames.js';
import { PYTHON_WARNING } from '../runtimes/python/warning.js';
import { hasFailureWords } from './knowledge/failure-words.js';
import { RecentLines } from './recent-lines.js';
import { BlockScanner, type ScanTarget } from './scan-blocks.js';
import type { SkippedLines } from './skipped-span.js';
import { isProbeRequest } from './knowledge/probes.js';
import { ServiceTracker, type ServiceEvent } from './track-service.js';
import { ProcessIds } from './process-ids.js';
import { markStop, STALL_LOOKBACK } from './stop-mark.js';

/** How many of the log's last lines the diagnosis may read as its last words. */
const LAST_LINES_KEPT = 5;
const NOT_BLANK = /\S/;
const CONTEXT_BEFORE = 40;
const CONTEXT_AFTER = 40;
/** How many wrapped rows of a table's cell are joined to its message: the reason, not a whole traceback. */
const CONTINUED_ROWS = 3;
/** A stop asked this many lines after a traceback's last line is not part of its printing. */
const STOP_AFTER_TRACEBACK = 20;
/** How close before a bare exception's traceback the error its code logged for it is. */
const EXPLAINED_WITHIN = 5;
const MAX_GROUPS_PER_ATTEMPT = 600;
const MAX_SOFT_GROUPS = 200;
const MAX_CHAIN_WALK = 8;
const MAX_CANDIDATES_WITH_CONTEXT = 64;
const MAX_ATTEMPTS_KEPT = 4;
/** Ordinary lines after a stop past which no unwinding of the stopped run goes on. */
const UNWOUND_BY = 200;
/** Lines before a new run's first failure within which an error it logged is part of that failure. */
const SAID_JUST_BEFORE = 8;
/** A crash's dump is this long at most (a Go runtime prints every goroutine). */
const MAX_DUMP_LINES = 5000;
const DEFAULT_MAX_LINE_LENGTH = 64 * 1024;
const KEPT_LINE = 2048;
/** Where a log is long enough to pay for the word pass at once (the CLI's short logs end before it). */
const LONG_LOG_BYTES = 1 << 20;
/** The end of a log is read closely whatever the server was doing: its death and what led to it are there. */
const DEFAULT_CLOSE_READ_BYTES = 4 << 20;

/** The state of one diagnosis as lines arrive; memory is bounded by what is kept, not by input size. */
class Session implements DiagnosisSession, ScanTarget {
  private readonly scanner: BlockScanner;
  private readonly assembler: TracebackAssembler;
  private readonly service: ServiceTracker;
  private readonly signatures;
  private lineCount = 0;
  private noise = 0;
  /** Distinct errors past the group caps: not kept, counted so the report can say so. */
  private droppedGroups = 0;
  /** Process names past LIMITS.processNames a failure group or the start markers did not keep, counted. */
  private droppedProcessNames = 0;
  private readonly formats = new Map<string, number>();
  private readonly recent = new RecentLines(CONTEXT_BEFORE, (raw) => keepLine(cleanLine(raw)));
  private readonly awaitingContext: { candidate: Candidate; until: number }[] = [];
  private attempts: Attempt[] = [createAttempt(0, 1)];
  private readonly traceCandidates = new WeakMap<Traceback, Candidate[]>();
  private readonly engineVotes = new Map<Engine, number>();
  private readonly engineVersions = new Map<Engine, string>();
  private readonly processes = new Set<string>();
  private readonly processIds = new ProcessIds();
  private readonly consoleCopy = new ConsoleCopyFilter();
  private readonly indented = new IndentedBlock();
  private readonly drafts = new DraftMemo();
  /** A failure whose message is the line that comes next (a Rust panic's `panicked at FILE:LINE:COL:`). */
  private awaitingMessage: Candidate | null = null;
  /** A failure whose message may go on on the next rows (a wrapped table cell), and how many more may. */
  private continued: { candidate: Candidate; pattern: RegExp; rowsLeft: number } | null = null;
  /** Which lines are read and how closely, from what the lines read say (never the server's state). */
  private readonly policy: ReadingPolicy;
  /** Lines left of a crash's dump (stacks, registers, goroutines) after a crash line; 0 when none. */
  private dumpLeft = 0;
  /** The last line was a harmless Python warning whose message goes on on the next line. */
  private warningContinues = false;
  /** The stack-frame lines the log ends with so far (runtimes/cpp/stack-frames.ts), blank ones aside. */
  private framesAtEnd = 0;

  constructor(private readonly options: DiagnoseOptions) {
    this.signatures = options.signatures ?? builtinSignatures;
    this.policy = new ReadingPolicy(options.readEveryLine === true);
    this.scanner = new BlockScanner(this, {
      maxLineLength: options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH,
      closeReadBytes: options.closeReadBytes ?? DEFAULT_CLOSE_READ_BYTES,
      ...(options.startHelper === undefined ? {} : { startHelper: options.startHelper }),
    });
    this.assembler = new TracebackAssembler(
      (traceback) => this.addTraceback(traceback),
      (traceback) => this.amendTraceback(traceback),
    );
    this.service = new ServiceTracker(options.unit);
  }

  push(chunk: Uint8Array | string): void {
    this.scanner.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
    this.noteLength();
  }

  needsLine(n: number): boolean {
    if (this.indented.holding || this.policy.readsInFull(n) || this.awaitingMessage !== null) return true;
    if (this.continued !== null) return true;
    if (this.warningContinues) return true;
    if (this.awaitingContext.length > 0 || this.consoleCopy.engaged || this.dumpLeft > 0) return true;
    return this.assembler.wantsLine(n);
  }

  readsClosely(n: number): boolean {
    return this.policy.readsClosely(n);
  }

  skipLines(count: number, lastLines: SkippedLines): void {
    this.releaseHeld();
    this.lineCount += count;
    // A skipped line cannot matter, and every stack frame does (may-matter.ts's STRUCTURE).
    if (count > 0) this.framesAtEnd = 0;
    this.countChatter(count - (this.current.failedAfterReady ? lastLines.countProbes() : 0));
    this.recent.pushSkipped(count, lastLines);
  }

  settle(): void {
    this.recent.settle();
  }

  pushFrom(read: (target: Uint8Array) => number): number {
    const count = this.scanner.fill(read);
    this.noteLength();
    return count;
  }

  /** A log past LONG_LOG_BYTES is long: the knowledge lists' words are looked for first from here on. */
  private noteLength(): void {
    if (this.scanner.bytes > LONG_LOG_BYTES) answerByPass();
  }

  pushLine(rawLine: string): void {
    // Bytes pushed before still wait in the scanner's queue: they come first.
    this.scanner.flush();
    this.readLine(rawLine);
  }

  /** One line, after every line before it (the scanner's way in). */
  readLine(rawLine: string): void {
    // Past the log's first lines no line is held: each is read as it comes, without an array for it.
    if (!this.indented.holding) this.readOne(this.indented.strip(rawLine));
    else for (const line of this.indented.take(rawLine)) this.readOne(line);
  }

  /** The lines held while the log's first lines decide whether it is an indented block. */
  private releaseHeld(): void {
    if (this.indented.holding) for (const line of this.indented.release()) this.readOne(line);
  }

  private readOne(rawLine: string): void {
    this.lineCount++;
    if (this.consoleCopy.skips(rawLine)) return;
    if (this.continued !== null) this.continueMessage(this.continued, rawLine);
    const warned = this.warningContinues;
    this.warningContinues = false;
    if (warned || (this.awaitingMessage !== null && this.giveMessage(this.awaitingMessage, rawLine))) {
      // A warning's own words, whatever they say (`No module named 'vllm._version'` under Python's
      // `RuntimeWarning: Failed to read commit hash:`): part of what was survived, no failure of its own.
      this.remember(cleanLine(rawLine));
      return;
    }
    const dump = this.readsDump(rawLine);
    // Most of a long log is chatter: a line that can matter to nothing here is only remembered as context.
    const matters = this.options.readEveryLine === true || mayMatter(rawLine);
    if (!matters && !this.assembler.wantsLine(this.lineCount)) {
      // The head is still read for what it says of the engine and the log's format.
      if (this.lineCount <= ENGINE_HEAD) this.describe(parseLine(rawLine, this.lineCount));
      if (this.framesAtEnd > 0 && NOT_BLANK.test(rawLine)) this.framesAtEnd = 0;
      if (!dump && !this.answersProbe(rawLine)) this.countChatter(1);
      this.remember(cleanLine(rawLine));
      return;
    }
    // Reading every line, one the quick reading would skip still counts as ordinary work, as it does there.
    const skippable =
      this.options.readEveryLine === true && !this.assembler.wantsLine(this.lineCount) && !mayMatter(rawLine);
    const line = parseLine(rawLine, this.lineCount);
    if (STACK_FRAME_LINE.test(rawLine)) this.framesAtEnd++;
    else if (NOT_BLANK.test(rawLine)) this.framesAtEnd = 0;
    // What the engine is, is read where the quick reading reads it: the head and the lines that matter.
    if (!skippable || this.lineCount <= ENGINE_HEAD) this.describe(line);
    let failing = false;
    for (const part of expandLine(line)) {
      this.readMarkers(part);
      const role = this.assembler.push(part);
      if (role !== 'other' || this.readFailure(part)) failing = true;
    }
    // A server reporting its work (a request served, its metrics) is alive, whatever words the line holds; a
    // probe answered after a failure shows the API server up, not the engine at work.
    const probe = this.answersProbe(rawLine);
    if (!failing && !probe && isReporting(line)) this.countChatter(1);
    else if (skippable && !dump && !probe) this.countChatter(1);
    this.remember(line.raw);
  }

  /**
   * Whether a line is part of the dump a crash prints (goroutines, frames, registers): no work of the
   * server's, so it does not show the server went on. The dump ends at the first line with a level.
   */
  private readsDump(rawLine: string): boolean {
    if (this.dumpLeft === 0) return false;
    this.dumpLeft--;
    if (parseLine(rawLine, this.lineCount).level === null) return true;
    this.dumpLeft = 0;
    return false;
  }

  /** A probe answered (knowledge/probes.ts) after a failure once ready: no work of the engine's. */
  private answersProbe(rawLine: string): boolean {
    return this.current.failedAfterReady && isProbeRequest(rawLine);
  }

  /** Ordinary lines: after readiness, the server going on with its work. */
  private countChatter(count: number): void {
    const attempt = this.current;
    attempt.engineLines += count;
    attempt.work += count;
    if (attempt.readyLine !== null) attempt.chatter += count;
  }

  /** What a line says of the log: its formats, its engine, its process. */
  private describe(line: ParsedLine): void {
    for (const format of line.formats) this.formats.set(format, (this.formats.get(format) ?? 0) + 1);
    voteEngine(line, this.engineVotes);
    const named = readEngineVersion(line.text);
    if (named !== null) this.engineVersions.set(named.engine, named.version);
    if (line.process !== null && this.processes.size < 256) this.processes.add(line.process);
    this.processIds.note(line);
  }

  peek(): Diagnosis {
    // Lines still held while the first ones decide are not read yet: a peek decides nothing early.
    this.scanner.flush();
    return this.build(false);
  }

  closePending(): void {
    this.scanner.flush();
    // A silent log is as complete as it gets: its first lines decide with what there is.
    this.releaseHeld();
    this.assembler.flush();
  }

  askStop(): void {
    this.scanner.flush();
    this.releaseHeld();
    this.current.stopLine ??= this.lineCount;
  }

  end(): Diagnosis {
    this.scanner.end();
    this.releaseHeld();
    this.assembler.flush();
    return this.build(true);
  }

  private get current(): Attempt {
    return this.attempts[this.attempts.length - 1] as Attempt;
  }

  private readMarkers(line: ParsedLine): void {
    const event = this.service.read(line);
    const text = line.text;
    const attempt = this.current;
    if (event === 'failed-exit') attempt.exitedWithFailure = true;
    if (event === 'stopped' || event === 'exit') attempt.stopped = true;
    if (line.ident !== 'systemd' && event === null) attempt.engineLines++;
    // What follows a start, a stop or a death is read closely (the reading's choice, not a decision).
    // Which start marker the line is, asked once (systemd's own lines are read as events instead).
    const mark = line.ident === 'systemd' ? -1 : startMarkerOf(text, line.level);
    const marksStart = event === 'start' || mark !== -1;
    if (event !== null || marksStart || isDeathMarker(text) || opensCloseReading(line)) {
      this.policy.closeAfter(line.n);
    }
    if (this.startsAgain(attempt, line, event, mark)) {
      this.openAttempt(line.n);
      this.noteStartMark(this.current, line, mark);
      return;
    }
    this.noteStartMark(attempt, line, mark);
    this.readStop(attempt, line, event);
    const shutDown = attempt.stopLine !== null && (event === 'stopped' || isShutdownDone(text));
    if (shutDown && attempt.shutDownLine === null) {
      attempt.shutDownLine = line.n;
      attempt.workAtShutDown = attempt.work;
    }
    this.readExit(attempt, line);
    const ready = isReadyMarker(text);
    if (ready) attempt.lastReadyLine = line.n;
    if (attempt.readyLine === null && ready) attempt.readyLine = line.n;
    // Known noise says nothing of a death (PyTorch's exit warning links to a page about `#shutdown`).
    else if (attempt.readyLine !== null && isDeathMarker(text) && !isNoise(text)) {
      attempt.diedAfterReady = true;
      if (attempt.deathLine === null) {
        attempt.deathLine = line.n;
        attempt.deathChatter = attempt.chatter;
      }
    }
  }

  /**
   * Whether this line begins the next start. systemd's own lines are boundaries in plain text as in a
   * unit's journal, after any engine's lines; the same banner again from the same process is a new start;
   * any start marker is one once the start before it ended (a crash, readiness, an exit, a stop). A start
   * marker right after another (systemd's "Starting", then the engine's banner) is the same start, and
   * import-time warnings come before the banner of their own start. `mark`: the line's start marker, or -1
   * (always for systemd's own lines).
   */
  private startsAgain(attempt: Attempt, line: ParsedLine, event: ServiceEvent, mark: number): boolean {
    // Whether the start before ended is asked last: it reads every candidate of the start.
    const ended = () =>
      attempt.readyLine !== null ||
      attempt.exitedWithFailure ||
      attempt.stopped ||
      attempt.stopLine !== null ||
      attempt.candidates.some((c) => c.fatal && c.kind !== 'hint');
    if (event === 'start') return ended() || attempt.engineLines > 0;
    if (event === 'started' || event === 'restart') return ended();
    if (event !== null || mark === -1) return false;
    return ended() || attempt.startMarks.has(`${mark}:${line.process ?? ''}`);
  }

  private noteStartMark(attempt: Attempt, line: ParsedLine, mark: number): void {
    if (mark === -1) return;
    if (isServerBanner(mark)) attempt.server = true;
    const key = `${mark}:${line.process ?? ''}`;
    if (attempt.startMarks.size < LIMITS.processNames) attempt.startMarks.add(key);
    else if (!attempt.startMarks.has(key)) this.droppedProcessNames++;
  }

  /** A server's start that has neither become ready nor been asked to stop notes where its process said it exited. */
  private readExit(attempt: Attempt, line: ParsedLine): void {
    if (!attempt.server || attempt.readyLine !== null || attempt.stopLine !== null || attempt.stopped) return;
    const at = exitMarkIn(line.text);
    if (at === -1) return;
    const message = line.text.slice(at).trim();
    attempt.exitMark = { line, message, context: this.recent.last(CONTEXT_BEFORE), work: attempt.work };
  }

  /**
   * A stop asked for: a signal, systemd's `Stopping`, or the server shutting down with no failure before
   * it. What it unwinds with afterwards is not a failure.
   */
  private readStop(attempt: Attempt, line: ParsedLine, event: ServiceEvent): void {
    if (attempt.stopLine !== null) return;
    const asked = event === 'stopping' || (event === null && isStopRequest(line.text));
    const quiet = () =>
      !this.assembler.isPrintingNear(line.n, STOP_AFTER_TRACEBACK) &&
      !eligibleCandidates(attempt).some((c) => c.fatal && !c.wrapper);
    // A shutdown said in an error (`Worker proc ... died unexpectedly, shutting down executor.`) is a death.
    const orderly = () =>
      isShutdownPhrase(line.text) &&
      line.level !== 'ERROR' &&
      line.level !== 'CRITICAL' &&
      !errorJustBefore(attempt);
    if (!(asked ? quiet() : orderly() && quiet())) return;
    attempt.stopLine = line.n;
    attempt.workAtStop = attempt.work;
    if (asked && attempt.readyLine === null)
      attempt.stopBeforeReady = markStop(line, this.recent.last(STALL_LOOKBACK));
  }

  /** Reads a line outside any traceback; says whether it was a candidate. */
  private readFailure(line: ParsedLine): boolean {
    const drafted = this.drafts.draft(line);
    if (drafted === null) return false;
    if (drafted === 'noise') {
      this.noise += line.repeat;
      // A harmless warning whose words go on on the next line (`Failed to read commit hash:`): they are its.
      this.warningContinues = PYTHON_WARNING.test(line.text) && /:\s*$/.test(line.text);
      return false;
    }
    const candidate = this.addDraft(drafted.draft, line.process, drafted.fingerprint);
    // A header like one before (a Rust panic at another line of the same file) is counted in its group:
    // the message after it is its own, not the first one's.
    if (drafted.draft.awaitsMessage === true && candidate.line.n === line.n) this.awaitingMessage = candidate;
    if (drafted.draft.takesLineBefore === true) this.takeLineBefore(candidate);
    const pattern = drafted.draft.continuation;
    if (pattern !== undefined) this.continued = { candidate, pattern, rowsLeft: CONTINUED_ROWS };
    return true;
  }

  /** The next row of a message wrapped in a table's cell: appended while the rows go on. */
  private continueMessage(
    continued: { candidate: Candidate; pattern: RegExp; rowsLeft: number },
    rawLine: string,
  ): void {
    const m = continued.pattern.exec(rawLine);
    if (m === null || continued.rowsLeft === 0) {
      this.continued = null;
      return;
    }
    continued.candidate.message += m[1] ?? '';
    continued.rowsLeft--;
  }

  /**
   * The line before a failure that only says where (ggml-sycl's `Exception caught at file:`): its message,
   * when it speaks of a failure and is no candidate itself. Read before this line is remembered.
   */
  private takeLineBefore(candidate: Candidate): void {
    const raw = this.recent.at(1);
    if (raw === undefined) return;
    const before = parseLine(raw, this.lineCount - 1);
    const text = before.text.trim();
    if (!hasFailureWords(text) || this.drafts.draft(before) !== null) return;
    candidate.message = text;
    candidate.detail = [candidate.line.text.trim()];
  }

  /**
   * The line after a failure that said its message comes next: that message, unless it is a failure
   * itself; a Python warning's continuation is its, whatever it says. True where the line was a warning's.
   */
  private giveMessage(candidate: Candidate, rawLine: string): boolean {
    this.awaitingMessage = null;
    const next = parseLine(rawLine, this.lineCount);
    const text = next.text.trim();
    if (text === '') return false;
    const warning = PYTHON_WARNING.test(candidate.line.text);
    if (!warning && this.drafts.draft(next) !== null) return false;
    candidate.message = text;
    candidate.detail = [candidate.line.text.trim()];
    return warning;
  }

  private addTraceback(traceback: Traceback): void {
    const added: Candidate[] = [];
    for (const draft of draftsFromTraceback(
      traceback,
      traceback.messageLine ?? this.lineAt(traceback.firstLine),
    )) {
      added.push(this.addDraft(draft, traceback.process ?? draft.line.process));
    }
    this.traceCandidates.set(traceback, added);
    this.explainBareException(traceback, added[0]);
    // The first exception of a chain is usually the cause; each link back earns its predecessor a bonus.
    let link: Traceback | null = traceback;
    // Only the chain's last traceback shows the request handler's frames: the ones it was raised from
    // (a tokenizer's load that failed inside a request) failed that request too.
    const request = added.some((c) => c.phase === 'request');
    // A chain longer than this is a loop of repeated errors, not causes: stop walking it.
    for (let depth = 0; link?.chainedFrom && depth < MAX_CHAIN_WALK; depth++) {
      const bonus = 12;
      for (const candidate of this.traceCandidates.get(link.chainedFrom) ?? []) {
        if (request && candidate.phase === null) candidate.phase = 'request';
        // The same error again right after itself (a library complaining once per import) is no chain;
        // a stop (`SystemExit`, a cancelled task) handled on the way out is no cause, however linked.
        if (added.includes(candidate) || !candidate.fatal) continue;
        const better = added.find((c) => saysLessThan(candidate, c));
        // The exception that says more wins, the tie of two of the same strength included.
        if (better === undefined) candidate.chainBonus += bonus;
        else candidate.strength = Math.min(candidate.strength, better.strength - 1);
        candidate.ledTo = [...(candidate.ledTo ?? []), ...added];
      }
      link = link.chainedFrom;
    }
  }

  /**
   * An exception with no words of its own (`asyncio.exceptions.TimeoutError`) that the code logged an error
   * for just before raising it (`Engine iteration timed out. This should never happen!`): that error says
   * what it was, and stands for it. Only an error line, its own words, just before the chain's first
   * traceback.
   */
  private explainBareException(traceback: Traceback, bare: Candidate | undefined): void {
    if (bare === undefined || bare.exception === null || !bare.fatal || !saysNothing(bare.message)) return;
    let first = traceback;
    while (first.chainedFrom !== null) first = first.chainedFrom;
    const attempt = this.attempts.find((a) => a.index === bare.attempt);
    const named = lastSegment(bare.exception);
    const said = attempt?.candidates.findLast(
      (c) =>
        c.kind === 'error-line' &&
        !c.wrapper &&
        // Its own words, not the exception's repr (`NoFreeBlocksError()`) logged before its traceback,
        // nor a header that only announces it (uvicorn's `Exception in ASGI application`).
        !c.message.startsWith(named) &&
        !announcesException(c.message) &&
        c.line.n < first.firstLine &&
        first.firstLine - c.line.n <= EXPLAINED_WITHIN &&
        c.line.level === 'ERROR',
    );
    if (said === undefined) return;
    said.fatal = true;
    said.strength = Math.max(said.strength, bare.strength + 1);
  }

  private amendTraceback(traceback: Traceback): void {
    const detail = traceback.detail.map((line) => line.text);
    const first = this.traceCandidates.get(traceback)?.[0];
    if (first && first.exception === traceback.exception) {
      first.detail = detail;
      first.message = joinMessage(traceback.message, detail);
    }
  }

  /**
   * The start a draft belongs to. After a stop that was asked for, the server unwinds (cancelled tasks, a
   * dead engine, children ended by the signal); an error of any other shape is not part of that: the
   * process is gone, so it is the next run's, banner or not (a log cut between runs, a restart without
   * systemd's lines). That run begins at the first such error after the stop.
   */
  private runOf(draft: Draft): Attempt {
    const attempt = this.attemptOf(draft.line.n);
    const stop = attempt.stopLine;
    if (stop === null || draft.line.n <= stop) return attempt;
    const unwinds = unwindingOf(attempt);
    // No unwinding logs this much ordinary work after its stop (another program's run in the same file).
    const longAfterStop = (work: number): boolean => work - attempt.workAtStop >= UNWOUND_BY;
    // Before the shutdown is complete only a failure proves the server is no longer unwinding, or a death's
    // pointer long after the stop.
    const speaks =
      attempt.shutDownLine !== null || (draft.fatal && (!draft.wrapper || longAfterStop(attempt.work)));
    // A service's process started after the stop (a new pid of its journal's lines) is a new run's.
    const restarted = draft.fatal && this.processIds.startedAfter(draft.line, stop);
    if (!restarted && (!speaks || unwinds(draft.exception, draft.message))) return attempt;
    // A process of this run that reports a death as it goes (vLLM's engine core: `Worker proc VllmWorker-4 died
    // unexpectedly, shutting down executor.` after its API server's shutdown) is unwinding with it; a
    // traceback it prints is its own failure.
    if (reportsDeath(draft) && this.processIds.seenBefore(draft.line, stop)) return attempt;
    if (attempt !== this.current) return this.openedByLaterError(attempt, draft);
    // What the server logged before its shutdown said it was complete was the unwinding, whatever it says;
    // so was an error it lived through (vLLM's `AsyncLLM output_handler failed.` over its engine's end).
    const unwound = attempt.shutDownLine ?? stop;
    // What came long after the stop is the next run's whatever its shape: no unwinding goes on that long.
    const moved = attempt.candidates.filter(
      (c) =>
        c.line.n > unwound &&
        c.fatal &&
        ((!c.wrapper && !unwinds(c.exception, c.message)) || longAfterStop(c.workBefore)),
    );
    moved.push(...saidJustBefore(attempt, draft, new Set(moved), unwound));
    const next = this.openAttempt(Math.min(draft.line.n, ...moved.map((c) => c.line.n)));
    next.openedByError = true;
    moveCandidates(attempt, next, new Set(moved));
    return next;
  }

  /**
   * A traceback is drafted when it ends: one that began after the stop may come once a later error (a
   * worker's `WorkerProc failed to start.` under it) has begun the next run. Where that run was begun by
   * an error, not a start, this one is that run's too, and begins it.
   */
  private openedByLaterError(attempt: Attempt, draft: Draft): Attempt {
    const next = this.attempts[this.attempts.indexOf(attempt) + 1];
    if (next === undefined || !next.openedByError) return attempt;
    next.firstLine = Math.min(next.firstLine, draft.line.n);
    return next;
  }

  /** The next start, from `firstLine`; the oldest kept is let go past MAX_ATTEMPTS_KEPT. */
  private openAttempt(firstLine: number): Attempt {
    const next = createAttempt(this.current.index + 1, firstLine);
    this.attempts.push(next);
    if (this.attempts.length > MAX_ATTEMPTS_KEPT) this.attempts.shift();
    return next;
  }

  /** A traceback is emitted when it ends, maybe after the next start began: its line decides. */
  private attemptOf(lineNumber: number): Attempt {
    for (let i = this.attempts.length - 1; i > 0; i--) {
      const attempt = this.attempts[i] as Attempt;
      if (attempt.firstLine <= lineNumber) return attempt;
    }
    return this.attempts[0] as Attempt;
  }

  /**
   * Adds a draft as a candidate of the start its line belongs to, or counts it in the group of an identical
   * one; returns the group's candidate. A failure a log repeats (a request error) is counted, not built.
   */
  private addDraft(draft: Draft, process: string | null, fingerprint = fingerprintDraft(draft)): Candidate {
    const attempt = this.runOf(draft);
    const group = attempt.groups.get(fingerprint);
    if (group) {
      group.count += draft.line.repeat;
      group.representative.lastCopyLine = draft.line.n;
      if (process) this.addProcess(group.processes, process);
      return group.representative;
    }
    const afterReady = attempt.readyLine !== null && attempt.readyLine < draft.line.n;
    const candidate = completeDraft(
      draft,
      attempt.index,
      afterReady,
      [],
      attempt.chatter,
      fingerprint,
      attempt.work,
    );
    return this.addCandidate(attempt, candidate, process);
  }

  /** A failure's processes are named up to LIMITS.processNames (the first ones); the rest are counted. */
  private addProcess(processes: Set<string>, process: string): void {
    if (processes.size < LIMITS.processNames) processes.add(process);
    else if (!processes.has(process)) this.droppedProcessNames++;
  }

  /** Adds a candidate of its own group (none identical yet); returns it. */
  private addCandidate(attempt: Attempt, candidate: Candidate, process: string | null): Candidate {
    // Warnings and hints must not crowd out the failures that come last: they have a smaller budget.
    if (
      attempt.groups.size >= MAX_GROUPS_PER_ATTEMPT ||
      (!candidate.fatal && attempt.groups.size - attempt.fatalGroups >= MAX_SOFT_GROUPS)
    ) {
      this.droppedGroups++;
      return candidate;
    }
    if (candidate.fatal) attempt.fatalGroups++;
    if (candidate.fatal && !candidate.wrapper && candidate.afterReady && candidate.phase !== 'request')
      attempt.failedAfterReady = true;
    if (candidate.fatal && candidate.crash) this.dumpLeft = MAX_DUMP_LINES;
    // Context is for signatures that read around a cause; the first candidates of a start need it most.
    const withContext = attempt.groups.size < MAX_CANDIDATES_WITH_CONTEXT;
    candidate.context = withContext ? this.recent.last(CONTEXT_BEFORE) : [];
    candidate.contextBefore = candidate.context.length;
    attempt.groups.set(candidate.fingerprint, {
      representative: candidate,
      processes: new Set(process ? [process] : []),
      count: candidate.line.repeat,
    });
    attempt.candidates.push(candidate);
    if (withContext) this.awaitingContext.push({ candidate, until: this.lineCount + CONTEXT_AFTER });
    return candidate;
  }

  private remember(raw: string): void {
    const kept = keepLine(raw);
    this.recent.push(kept);
    if (this.awaitingContext.length === 0) return;
    for (const waiting of this.awaitingContext) waiting.candidate.context.push(kept);
    while (this.awaitingContext.length > 0 && (this.awaitingContext[0]?.until ?? 0) <= this.lineCount) {
      this.awaitingContext.shift();
    }
  }

  /** The log's last lines (blank ones aside), oldest first: what it ends with. */
  private lastLines(): ParsedLine[] {
    const lines: ParsedLine[] = [];
    for (let n = this.lineCount; n > 0 && n > this.lineCount - LAST_LINES_KEPT; n--) {
      const line = this.lineAt(n);
      if (line.text.trim() !== '') lines.unshift(line);
    }
    return lines;
  }

  /** A stand-in line for a traceback that has no exception line to point at. */
  private lineAt(n: number): ParsedLine {
    return parseLine(this.recent.at(this.lineCount + 1 - n) ?? '', n);
  }

  /** `ended`: the log is over, so what its last lines say ends it (a peek is taken while it goes on). */
  private build(ended: boolean): Diagnosis {
    const diagnosis = buildDiagnosis({
      ended,
      attempts: this.attempts,
      signatures: this.signatures,
      service: this.service.summary(),
      noise: this.noise,
      input: {
        lines: this.lineCount,
        bytes: this.scanner.bytes,
        formats: [...this.formats.keys()],
        truncatedLines: this.scanner.truncatedLines,
      },
      engineVotes: this.engineVotes,
      engineVersions: this.engineVersions,
      processes: [...this.processes],
      lastLines: ended ? this.lastLines() : [],
      framesAtEnd: this.framesAtEnd,
    });
    if (this.droppedGroups > 0) {
      diagnosis.warnings.push(
        `${this.droppedGroups} more distinct errors were counted but not kept (at most ${MAX_GROUPS_PER_ATTEMPT} per start)`,
      );
    }
    if (this.droppedProcessNames > 0) {
      diagnosis.warnings.push(
        `${this.droppedProcessNames} failure lines of processes past the first ${LIMITS.processNames} were counted, not named`,
      );
    }
    return diagnosis;
  }
}

/**
 * What is still a stopped run's unwinding after its stop. Once the shutdown is complete only a stop
 * itself; before, any unwinding words. A native crash is the old process's teardown only while nothing
 * else was logged since its end.
 */
function unwindingOf(attempt: Attempt): (exception: string | null, message: string) => boolean {
  if (attempt.shutDownLine === null) return isShutdownShaped;
  const teardown = attempt.work - attempt.workAtShutDown < WENT_ON;
  return (exception, message) => isStopShaped(exception, message, teardown);
}

/**
 * What was logged after the stop's unwinding, just before the failure that begins the next run, with nothing
 * of the old run's between (TensorRT-LLM's `[E] Error in event loop: ...` over the thread's traceback, the linker's
 * `cannot find -lcuda` over collect2's exit): one incident, said in two lines.
 */
function saidJustBefore(
  attempt: Attempt,
  draft: Draft,
  moving: ReadonlySet<Candidate>,
  unwound: number,
): Candidate[] {
  const said: Candidate[] = [];
  const before = attempt.candidates.filter((c) => c.line.n < draft.line.n && !moving.has(c));
  for (const c of before.sort((a, b) => b.line.n - a.line.n)) {
    const near = c.line.n > unwound && draft.line.n - c.line.n <= SAID_JUST_BEFORE;
    if (!near || c.wrapper || c.fatal) break;
    said.push(c);
  }
  return said;
}

/** Moves `moving` candidates (and their groups) of one start to the next, in order. */
function moveCandidates(from: Attempt, to: Attempt, moving: ReadonlySet<Candidate>): void {
  // In the order the start found them, whatever order they were picked in.
  const moved = from.candidates.filter((c) => moving.has(c));
  from.candidates = from.candidates.filter((c) => !moving.has(c));
  for (const candidate of moved) {
    const group = from.groups.get(candidate.fingerprint);
    from.groups.delete(candidate.fingerprint);
    if (candidate.fatal) {
      from.fatalGroups--;
      to.fatalGroups++;
    }
    candidate.attempt = to.index;
    candidate.afterReady = false;
    to.candidates.push(candidate);
    if (group) to.groups.set(candidate.fingerprint, group);
  }
}

function keepLine(raw: string): string {
  return raw.length > KEPT_LINE ? raw.slice(0, KEPT_LINE) : raw;
}

/** A line the server wrote at INFO or DEBUG level that is not a failure: it is doing its work. */
function isReporting(line: ParsedLine): boolean {
  return (
    (line.level === 'INFO' || line.level === 'DEBUG') &&
    !isDeathMarker(line.text) &&
    !isShutdownPhrase(line.text)
  );
}

/** Escaped newlines of a traceback stored in one JSON string (TGI's JSON logs, a cut JSON line). */
const ESCAPED_TRACEBACK = /Traceback \(most recent call last\):\\n|\\n {2}File \\"/;

/** One input line may carry a whole multi-line message: each of its lines is read as a line. */
function expandLine(line: ParsedLine): ParsedLine[] {
  let text = line.text;
  // Both escapes hold a backslash-n: one builtin search rules out the regex for almost every line.
  if (!text.includes('\n') && text.includes('\\n') && ESCAPED_TRACEBACK.test(text)) {
    text = text.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\t/g, '\t');
  }
  if (!text.includes('\n')) return [line];
  return text.split('\n').map((part) => ({ ...line, text: part }));
}

export function createDiagnosisSession(options: DiagnoseOptions = {}): DiagnosisSession {
  return new Session(options);
}

/** A line that reports a process's death and no failure of its own (`Worker proc ... died unexpectedly`). */
function reportsDeath(draft: Draft): boolean {
  return draft.frames.length === 0 && DIED.test(draft.message);
}
