import { isDeathMarker, isReadyMarker, isStartMarker } from '../diagnosis/knowledge/markers.js';
import { parseLine } from '../parsing/parse-line.js';
import { createProgressTracker, type ProgressTracker } from '../progress/index.js';
import type { Engine } from '../types/diagnosis.js';
import { readLineTime, type LineTime } from './read-line-time.js';

/** A moment in the log: its line, and its clock time where the line carries one. */
export interface Moment {
  line: number;
  time: LineTime | null;
}

export interface TimelinePhase {
  id: string;
  label: string;
  at: Moment;
}

export interface TimelineFailure {
  process: string;
  at: Moment;
}

/** One start of the server, as a timeline shows it. */
export interface TimelineAttempt {
  index: number;
  start: Moment;
  end: Moment;
  phases: TimelinePhase[];
  ready: Moment | null;
  /** The first error line of each process that logged one, in order. */
  failures: TimelineFailure[];
  /** The service manager saw the main process exit non-zero, or the log died after readiness. */
  failed: boolean;
}

export interface StartTimeline {
  engine: Engine | null;
  attempts: TimelineAttempt[];
  /** Starts left out from the front, beyond MAX_ATTEMPTS. */
  attemptsDropped: number;
}

export interface TimelineBuilder {
  /** Feeds one line, without its newline, in input order. */
  push(line: string): void;
  finish(): StartTimeline;
}

const MAX_ATTEMPTS = 12;
const MAX_FAILURES = 64;
// An exception line, a traceback's start, or a plain `error:` in the words of C++ servers (llama.cpp's
// `llama_model_load: error loading model`, `main: error: unable to load model`).
const ERROR_LINE =
  /^(?:Traceback \(most recent call last\)|[\w.]+(?:Error|Exception|Exit|Interrupt)\b:?|(?:[\w.]+: )?(?:error|fatal|critical)\b[:\s])/i;
const FAILED_EXIT = /Main process exited, code=(?:exited|killed|dumped), status=(?!0\/)|Failed with result/;

/**
 * The starts of a server in a log, with the phases each reached (the progress specs of src/progress),
 * when it became ready and when each process first logged an error. Splits starts on the diagnosis's own
 * start markers, so a page's timeline and the diagnosis count the same starts. Pure and incremental:
 * memory stays bounded whatever the log's length.
 */
export function createTimelineBuilder(): TimelineBuilder {
  const attempts: TimelineAttempt[] = [];
  let dropped = 0;
  let engine: Engine | null = null;
  let tracker: ProgressTracker = createProgressTracker();
  let visits = 0;
  let seen = new Set<string>();
  let n = 0;
  let lastTime: LineTime | null = null;

  function open(at: Moment): TimelineAttempt {
    const attempt: TimelineAttempt = {
      index: (attempts.at(-1)?.index ?? -1) + 1,
      start: at,
      end: at,
      phases: [],
      ready: null,
      failures: [],
      failed: false,
    };
    attempts.push(attempt);
    if (attempts.length > MAX_ATTEMPTS) {
      attempts.shift();
      dropped += 1;
    }
    tracker = createProgressTracker({ engine });
    visits = 0;
    seen = new Set();
    return attempt;
  }

  return {
    push(line) {
      n += 1;
      const parsed = parseLine(line, n);
      const time = readLineTime(parsed.raw) ?? lastTime;
      lastTime = time;
      const at: Moment = { line: n, time };
      const text = parsed.text;
      let attempt = attempts.at(-1) ?? open(at);
      const settled = attempt.ready !== null || attempt.failed || attempt.failures.length > 0;
      if (isStartMarker(text) && settled) attempt = open(at);
      attempt.end = at;
      tracker.push(text, n);
      const state = tracker.state();
      engine ??= state.engine;
      for (const visit of state.visits.slice(visits))
        attempt.phases.push({ id: visit.id, label: visit.label, at });
      visits = state.visits.length;
      if (attempt.ready === null && (isReadyMarker(text) || state.readyAtMs !== null)) attempt.ready = at;
      if (
        FAILED_EXIT.test(text) ||
        (attempt.ready !== null && isDeathMarker(text) && /exited|died|dead/i.test(text))
      )
        attempt.failed = true;
      const failing = parsed.level === 'ERROR' || parsed.level === 'CRITICAL' || ERROR_LINE.test(text);
      if (!failing) return;
      const process = parsed.process ?? parsed.ident ?? 'server';
      if (seen.has(process) || attempt.failures.length >= MAX_FAILURES) return;
      seen.add(process);
      attempt.failures.push({ process, at });
    },
    finish: () => ({ engine, attempts, attemptsDropped: dropped }),
  };
}
