export { DEFAULT_STALL_MS, FACTS, defineEngineProgress } from './define-engine-progress.js';
export type { EngineProgressSpec, FactName, PhaseSpec } from './define-engine-progress.js';
export { ENGINE_PROGRESS } from './engines/index.js';
export { createProgressTracker, engineOfCommand } from './track-progress.js';
export type { PhaseVisit, ProgressState, ProgressTracker, TrackProgressOptions } from './track-progress.js';
export { estimateRemainingMs, recordStart } from './estimate-eta.js';
export type { StartRecord } from './estimate-eta.js';
export { describeFacts, formatBytes, formatDuration, formatProgressLine } from './format-progress.js';
