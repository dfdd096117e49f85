/** Vigil as a library: the same engines the CLI runs, taking data and returning data. */
export { diagnose, diagnoseFrom, diagnoseStream, createDiagnosisSession } from './diagnosis/index.js';
export type { DiagnoseOptions, DiagnosisSession } from './diagnosis/index.js';
export type * from './types/diagnosis.js';
export { renderDiagnosis, sanitizeOutput, type ReportFormat } from './reporting/index.js';
export { redactDiagnosis, redactText } from './redaction/index.js';
export { builtinSignatures, defineSignature } from './signatures/index.js';
export type { Signature, SignatureMatcher } from './signatures/index.js';
export { runCheck, waitGpuFree, createSnapshot, diffSnapshots } from './environment/index.js';
export type { CheckOptions, CheckReport } from './environment/index.js';
export { openSource, type SourceSpec } from './sources/index.js';
export { VigilError, UsageError, SourceError, EnvironmentError, ConfigError } from './errors.js';
