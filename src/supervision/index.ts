export { parseDuration } from './parse-duration.js';
export { OutputLineSplitter } from './split-output-lines.js';
export { parseHealthUrl, probeHealth } from './probe-health.js';
export { superviseServer } from './supervise-server.js';
export type {
  ExitStatus,
  FailureReason,
  OutputSink,
  StartFailure,
  SuperviseOptions,
  SupervisionEvent,
  SupervisionHandle,
  SupervisionOutcome,
  SupervisionResult,
} from './supervise-server.js';
export { describeExit, describeFailure, formatFailureReport } from './format-failure.js';
export type { FailureReportOptions, RenderDiagnosis, ReportFormat } from './format-failure.js';
export { appendStart, historyKey, historyPath, readHistory, startsOf } from './history-store.js';
export type { HistoryFile } from './history-store.js';
export { createProgressDisplay } from './progress-display.js';
export type { ProgressDisplay, ProgressDisplayOptions } from './progress-display.js';
export { runPreflight } from './preflight.js';
export type { PreflightOptions, PreflightVerdict } from './preflight.js';
export { formatExecLine, quoteExecArgument, renderUnitFile, validateServiceName } from './unit-file.js';
export type { UnitFileOptions } from './unit-file.js';
export { watchUnit } from './watch/watch-unit.js';
export type { WatchUnitOptions, WatchUnitResult } from './watch/watch-unit.js';
export { watchContainer } from './watch/watch-container.js';
export type { ContainerTarget, WatchContainerOptions } from './watch/watch-container.js';
export { WatchSession, parseSystemdExit } from './watch/watch-session.js';
export type { WatchEvent, WatchOptions, WatchOutcome } from './watch/watch-session.js';
export { trackInvocations } from './watch/track-invocations.js';
export type { InvocationSummary, InvocationTracker, ServiceRecord } from './watch/track-invocations.js';
export { parseSystemdMessage } from './watch/systemd-messages.js';
export type { SystemdEvent } from './watch/systemd-messages.js';
export { parseUnitState, readUnitState } from './watch/read-unit-state.js';
export type { UnitState } from './watch/read-unit-state.js';
export { followServer } from './follow-server.js';
