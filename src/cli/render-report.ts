import { redactDiagnosis } from '../redaction/index.js';
import { renderDiagnosis, type RenderOptions, type ReportFormat } from '../reporting/index.js';
import type { Diagnosis } from '../types/diagnosis.js';

/**
 * The one way a command prints a diagnosis: secrets redacted unless the user said --no-redact, since
 * reports get pasted into public issue threads.
 */
export function renderReport(diagnosis: Diagnosis, options: RenderOptions & { redact: boolean }): string {
  return renderDiagnosis(options.redact ? redactDiagnosis(diagnosis) : diagnosis, options);
}

/** A renderer with the redaction choice already made, for reports that embed a diagnosis. */
export function reportRenderer(redact: boolean, width?: number) {
  return (diagnosis: Diagnosis, options: { format: ReportFormat; color: boolean }): string =>
    renderReport(diagnosis, { ...options, redact, ...(width === undefined ? {} : { width }) });
}
