import { redactDiagnosis } from '../redaction/index.js';
import type { IncidentPage, PageReport } from '../reporting/html/incident-page.js';
import { renderHtml } from '../reporting/html/render-html.js';
import type { StartTimeline } from '../timeline/build-timeline.js';
import type { Diagnosis } from '../types/diagnosis.js';
import { VERSION } from './version.js';

/** What a command knows of one log it diagnosed, for a page. */
export interface PageInput {
  label: string | null;
  diagnosis: Diagnosis;
  timeline: StartTimeline | null;
}

/**
 * The one way a command writes an incident page: the same redaction as every other report, the version
 * and the time it was written. The clock is read here, at the edge; the page itself is rendered purely.
 */
export function renderPage(
  inputs: readonly PageInput[],
  options: {
    redact: boolean;
    findings?: IncidentPage['findings'];
    groups?: IncidentPage['groups'];
    now?: Date;
  },
): string {
  const reports: PageReport[] = inputs.map((input) => ({
    label: input.label,
    diagnosis: options.redact ? redactDiagnosis(input.diagnosis) : input.diagnosis,
    timeline: input.timeline,
  }));
  const now = options.now ?? new Date();
  return renderHtml({
    reports,
    groups: options.groups ?? [],
    findings: options.findings ?? null,
    vigilVersion: VERSION,
    redacted: options.redact,
    generatedAt: `${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  });
}
