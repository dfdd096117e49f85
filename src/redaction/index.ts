export { redactLines, redactText } from './redact-text.js';
export { redactDiagnosis } from './redact-diagnosis.js';
export { REDACTED } from './token-rules.js';
export { redactArgv } from './redact-argv.js';
