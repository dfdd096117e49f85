import type { Diagnosis } from '../types/diagnosis.js';
import type { DiagnoseOptions } from './api.js';
import { createDiagnosisSession } from './session.js';

export type { DiagnoseOptions, DiagnosisSession } from './api.js';
export { createDiagnosisSession } from './session.js';

/** Diagnoses a whole log held in memory. */
export function diagnose(log: string | Uint8Array, options: DiagnoseOptions = {}): Diagnosis {
  const session = createDiagnosisSession(options);
  session.push(log);
  return session.end();
}

/** Diagnoses a log as it streams in; memory stays bounded whatever its size. */
export async function diagnoseStream(
  chunks: AsyncIterable<Uint8Array | string>,
  options: DiagnoseOptions = {},
): Promise<Diagnosis> {
  const session = createDiagnosisSession(options);
  for await (const chunk of chunks) session.push(chunk);
  return session.end();
}

/**
 * Diagnoses a log that `read` writes straight into the session's buffers (see `DiagnosisSession.pushFrom`):
 * a file read synchronously this way is neither copied nor handed between threads.
 */
export function diagnoseFrom(read: (target: Uint8Array) => number, options: DiagnoseOptions = {}): Diagnosis {
  const session = createDiagnosisSession(options);
  while (session.pushFrom(read) > 0);
  return session.end();
}
