import type { DiagnosisSession } from '../../diagnosis/api.js';
import { createProgressTracker, type ProgressState, type ProgressTracker } from '../../progress/index.js';
import type { Diagnosis, Engine } from '../../types/diagnosis.js';
import { parseSystemdMessage } from '../../sources/journal/systemd-messages.js';
import { messageLines, rawLines } from './record-lines.js';

/** One journal entry, already decoded: what the watcher needs of it. */
export interface ServiceRecord {
  /** The entry as journald short text (one line per MESSAGE line), for the diagnosis. */
  text: string;
  /** MESSAGE alone, for phase lines and systemd's messages. */
  message: string;
  /** Written by systemd (PID 1) about the unit, rather than by the unit's processes. */
  systemd: boolean;
  /** The invocation it belongs to (_SYSTEMD_INVOCATION_ID or, for systemd's lines, INVOCATION_ID). */
  invocation: string | undefined;
  /** Milliseconds; entries' own time (__REALTIME_TIMESTAMP) so a replayed backlog keeps its durations. */
  atMs: number;
}

export type InvocationStatus = 'starting' | 'ready' | 'failed' | 'stopped';

export interface InvocationSummary {
  id: string | undefined;
  /** Ordinal among the invocations seen, from 1. */
  index: number;
  status: InvocationStatus;
  startedAtMs: number;
  endedAtMs: number | null;
  progress: ProgressState;
  /** systemd's words for the end: `exited 1/FAILURE`, `Failed with result 'timeout'`. */
  exit: string | null;
  /** The restart counter systemd gave when it scheduled a restart after this invocation. */
  restartCounter: number | null;
  /** The diagnosis of this invocation's lines alone, once it ended. */
  diagnosis: Diagnosis | null;
}

export interface InvocationTracker {
  /** Feeds one entry; returns the invocations whose status changed with it (the current one, mostly). */
  push(record: ServiceRecord): InvocationSummary[];
  /** Ends the current invocation on an outside verdict (docker inspect, kubectl get pod). */
  end(exitText: string, failed: boolean, atMs: number): void;
  /** Marks the current invocation ready from outside the log (the health probe). */
  markReady(atMs: number): InvocationSummary | null;
  current(): InvocationSummary | null;
  /** The current invocation's diagnosis so far, for a stalled or hung start. */
  peek(): Diagnosis | null;
  /** Failed starts, counted from what was seen: failed invocations and systemd's restart counters. */
  failedStarts(): number;
}

export interface TrackStartsOptions {
  engine?: Engine | null;
  readyFromLog: boolean;
  createDiagnosisSession: () => DiagnosisSession;
}

/**
 * Follows each start of a watched server on its own, from records of any log target (a unit's journal,
 * a container's logs): phases, readiness, systemd's or the runtime's verdict, and a diagnosis of its
 * lines only, so an earlier attempt never blurs the cause. Which invocation a journal entry belongs to,
 * and what systemd's words mean, come from sources/journal, the same code diagnose chooses one with.
 */
export function trackStarts(options: TrackStartsOptions): InvocationTracker {
  let current: InvocationSummary | null = null;
  let tracker: ProgressTracker | null = null;
  let session: DiagnosisSession | null = null;
  let count = 0;
  let failedSeen = 0;
  let counterBefore = 0;
  let stopRequested = false;

  function begin(id: string | undefined, atMs: number): InvocationSummary {
    if (current?.restartCounter != null) counterBefore = Math.max(counterBefore, current.restartCounter);
    count += 1;
    stopRequested = false;
    tracker = createProgressTracker({ engine: options.engine ?? null, readyFromLog: options.readyFromLog });
    session = options.createDiagnosisSession();
    current = {
      id,
      index: count,
      status: 'starting',
      startedAtMs: atMs,
      endedAtMs: null,
      progress: tracker.state(),
      exit: null,
      restartCounter: null,
      diagnosis: null,
    };
    return current;
  }

  function end(invocation: InvocationSummary, status: InvocationStatus, atMs: number): void {
    if (invocation.status === 'failed' || invocation.status === 'stopped') return;
    const wasReady = invocation.status === 'ready';
    // A start that ends on its own before it is ready failed, even with status 0; a stop asked for did not.
    invocation.status = status === 'stopped' && !wasReady && !stopRequested ? 'failed' : status;
    invocation.endedAtMs = atMs;
    if (invocation.status === 'failed') failedSeen += 1;
    if (session !== null) invocation.diagnosis = session.end();
    session = null;
  }

  return {
    push(record) {
      const event = record.systemd ? parseSystemdMessage(record.message) : null;
      let invocation = current;
      const restarted =
        event?.kind === 'starting' && record.invocation === undefined && invocation?.status !== 'starting';
      if (
        invocation === null ||
        restarted ||
        (record.invocation !== undefined && record.invocation !== invocation.id)
      ) {
        // systemd's lines about an invocation that already ended (restart scheduled) stay with it.
        invocation = begin(record.invocation, record.atMs);
      }
      const before = invocation.status;
      if (record.systemd) {
        session?.pushLine(record.text.replace(/\n$/, ''));
        if (event?.kind === 'stopping') stopRequested = true;
        if (event?.kind === 'main-exited') {
          invocation.exit = event.status;
          end(invocation, event.success ? 'stopped' : 'failed', record.atMs);
        } else if (
          event?.kind === 'failed' ||
          event?.kind === 'start-timeout' ||
          event?.kind === 'oom-killed'
        ) {
          invocation.exit ??= event.kind === 'failed' ? `Failed with result '${event.result}'` : event.kind;
          end(invocation, 'failed', record.atMs);
        } else if (event?.kind === 'start-limit-hit') {
          invocation.exit ??= 'start limit hit';
          end(invocation, 'failed', record.atMs);
        } else if (event?.kind === 'restart-scheduled') {
          invocation.restartCounter = event.counter;
        } else if (event?.kind === 'deactivated') {
          end(invocation, 'stopped', record.atMs);
        }
      } else if (session !== null && tracker !== null) {
        for (const line of rawLines(record.text)) session.pushLine(line);
        for (const line of messageLines(record.message))
          tracker.push(line, record.atMs - invocation.startedAtMs);
        invocation.progress = tracker.state();
        if (invocation.status === 'starting' && invocation.progress.readyAtMs !== null)
          invocation.status = 'ready';
      }
      return invocation.status === before ? [] : [invocation];
    },
    end(exitText, failed, atMs) {
      if (current === null) return;
      current.exit = exitText;
      end(current, failed ? 'failed' : 'stopped', atMs);
    },
    markReady(atMs) {
      if (current === null || current.status !== 'starting' || tracker === null) return null;
      tracker.markReady(atMs - current.startedAtMs);
      current.progress = tracker.state();
      current.status = 'ready';
      return current;
    },
    current: () => current,
    peek: () => session?.peek() ?? current?.diagnosis ?? null,
    failedStarts() {
      const counterNow = current?.restartCounter ?? 0;
      const currentFailed = current?.status === 'failed' ? 1 : 0;
      return Math.max(failedSeen, counterBefore + currentFailed, counterNow);
    },
  };
}
