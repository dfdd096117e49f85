/** The environment checker's library API: what `vigil check`, `snapshot` and `diff` (and `vigil run`) use. */
export { runCheck, readSnapshotFile, type CheckOptions, type CheckReport } from './run-check.js';
export { waitGpuFree, type WaitGpuFreeOptions, type WaitGpuFreeResult } from './wait-gpu-free.js';
export { readEnvironment } from './read-environment.js';
export type { EnvironmentOptions } from './locate-environment.js';
export { locateInterpreter, type CommandInterpreter } from './locate-interpreter.js';
export { createSnapshot, type Snapshot, type SnapshotDistribution } from './snapshot.js';
export { diffSnapshots, snapshotVersions, type SnapshotDiff, type VersionChange } from './diff-snapshots.js';
export { readGpu, type GpuReading } from './read-gpu.js';
export type { GpuDevice, GpuProcess } from './parse-nvidia-smi.js';
export type { Distribution, PythonEnvironment } from './types.js';
export type { Finding, Severity } from '../checks/index.js';
export { satisfiesSpecifier, compareVersions } from './pep440.js';
export { parseRequirement, type Requirement } from './parse-requirement.js';
export { evaluateMarker, type MarkerEnvironment } from './evaluate-marker.js';
export { parseMarker, type Marker } from './parse-marker.js';
