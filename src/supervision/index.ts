export { parseDuration } from './parse-duration.js';
export { OutputLineSplitter } from './split-output-lines.js';
export { modelListUrl, parseHealthUrl, probeHealth, probeReady } from './probe-health.js';
export { EXIT_PREFLIGHT, EXIT_TIMEOUT, exitCodeFor, superviseServer } from './supervise-server.js';
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
  StallNotice,
} from './supervise-server.js';
export { createStartMonitor } from './monitor/start-monitor.js';
export type {
  MonitorEvent,
  MonitorOutput,
  MonitorState,
  StartMonitor,
  StartMonitorOptions,
  Verdict,
} from './monitor/start-monitor.js';
export { describeUnexplainedKill, explainKill } from './monitor/explain-kill.js';
export type { KillEvidence, KillFinding, PodEvent } from './monitor/explain-kill.js';
export { phaseDurations, stallBoundMs } from './monitor/stall-bounds.js';
export { downloadFolder, measureDownloads } from './watch-download.js';
export { describeLeftovers, findLeftoverGpuProcesses } from './find-leftover-gpu.js';
export type { LeftoverGpuProcess } from './find-leftover-gpu.js';
export { openStartRecorder, failureId } from './start-recorder.js';
export type { StartRecorder, StartRecorderOptions } from './start-recorder.js';
export {
  deriveProbeSettings,
  describeProbeBasis,
  renderKubeProbes,
  startupWindowMs,
} from './probe-settings.js';
export type { ProbeSettings } from './probe-settings.js';
export { startLifeline } from './lifeline.js';
export { describeExit, describeFailure, describeStall, formatFailureReport } from './format-failure.js';
export type { FailureReportOptions, RenderDiagnosis, ReportFormat } from './format-failure.js';
export {
  appendStart,
  historyKey,
  historyPath,
  readHistory,
  startsOf,
  statsOf,
  updateStats,
  writeAtomically,
} from './history-store.js';
export type { HistoryFile, StartStats } from './history-store.js';
export { createProgressDisplay } from './progress-display.js';
export type { ProgressDisplay, ProgressDisplayOptions } from './progress-display.js';
export { runPreflight } from './preflight.js';
export type { PreflightOptions, PreflightVerdict } from './preflight.js';
export {
  formatExecLine,
  quoteExecArgument,
  renderUnitFile,
  secretsOf,
  validateServiceName,
} from './unit-file.js';
export type { UnitFileOptions } from './unit-file.js';
export { watchUnit } from './watch/watch-unit.js';
export type { WatchUnitOptions, WatchUnitResult } from './watch/watch-unit.js';
export { watchContainer } from './watch/watch-container.js';
export type { ContainerTarget, WatchContainerOptions } from './watch/watch-container.js';
export { WatchSession, parseSystemdExit } from './watch/watch-session.js';
export type { WatchEvent, WatchOptions, WatchOutcome } from './watch/watch-session.js';
export { trackStarts } from './watch/track-starts.js';
export type { InvocationSummary, InvocationTracker, ServiceRecord } from './watch/track-starts.js';
export { parseSystemdMessage } from '../sources/journal/systemd-messages.js';
export type { SystemdEvent } from '../sources/journal/systemd-messages.js';
export { parseUnitState, readUnitState } from '../sources/journal/unit-state.js';
export type { UnitState } from '../sources/journal/unit-state.js';
export { followServer } from './follow-server.js';
export { followContainer } from './watch/watch-container.js';
export type { FollowContainerOptions } from './watch/watch-container.js';
export { followPods } from './watch/follow-pods.js';
export type { FollowPodsOptions } from './watch/follow-pods.js';
export { watchLog } from './watch/watch-log.js';
export type { WatchLogOptions } from './watch/watch-log.js';
export { beginsNewStart, hashText, nameLogStart } from './watch/split-log-starts.js';
export { renderWatcherUnit } from './watcher-unit.js';
export type { WatcherUnitOptions } from './watcher-unit.js';
export { renderWatcherManifest } from './watcher-manifest.js';
export type { WatcherManifestOptions } from './watcher-manifest.js';
