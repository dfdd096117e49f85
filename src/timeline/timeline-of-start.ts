import type { ProgressState } from '../progress/index.js';
import type { Moment, StartTimeline } from './build-timeline.js';

/**
 * The timeline of one supervised start (`vigil run`), from what the supervisor measured: the phases at the
 * times they were reached, readiness, and the moment it gave up, on the wall clock it started at. The
 * processes of the root cause are marked where the start failed. Pure: the caller passes the clock's reading.
 */
export function timelineOfStart(start: {
  startedAtMs: number;
  ranMs: number;
  progress: ProgressState;
  failed: boolean;
  causeProcesses: readonly string[];
}): StartTimeline {
  const at = (offsetMs: number): Moment => {
    const ms = start.startedAtMs + offsetMs;
    return { line: 0, time: { ms, clock: new Date(ms).toISOString().slice(11, 19) } };
  };
  const end = at(start.ranMs);
  const processes = start.causeProcesses.length > 0 ? start.causeProcesses : ['server'];
  return {
    engine: start.progress.engine,
    attempts: [
      {
        index: 0,
        start: at(0),
        end,
        phases: start.progress.visits.map((visit) => ({
          id: visit.id,
          label: visit.label,
          at: at(visit.atMs),
        })),
        ready: start.progress.readyAtMs === null ? null : at(start.progress.readyAtMs),
        failures: start.failed ? processes.map((process) => ({ process, at: end })) : [],
        failed: start.failed,
      },
    ],
    attemptsDropped: 0,
  };
}
