import type { Diagnosis } from '../types/diagnosis.js';
import { VERSION } from '../version.js';
import { createPaint } from './paint.js';
import { renderMarkdown } from './render-markdown.js';
import { renderText } from './render-text.js';
import { sanitizeOutput } from './sanitize-output.js';

export type ReportFormat = 'text' | 'json' | 'markdown';
export const REPORT_FORMATS: readonly ReportFormat[] = ['text', 'json', 'markdown'];

/** The report as text safe to print: a library caller gets the same neutralised controls as the CLI. */
export function renderDiagnosis(d: Diagnosis, options: { format: ReportFormat; color: boolean }): string {
  return sanitizeOutput(renderUnsanitized(d, options), options.color ? 'own' : 'none');
}

function renderUnsanitized(d: Diagnosis, options: { format: ReportFormat; color: boolean }): string {
  switch (options.format) {
    case 'json': {
      // Which vigil wrote it: a report outlives the install that made it.
      const { schemaVersion, ...rest } = d;
      return `${JSON.stringify({ schemaVersion, vigilVersion: VERSION, ...rest }, null, 2)}\n`;
    }
    case 'markdown':
      return renderMarkdown(d);
    case 'text':
      return renderText(d, createPaint(options.color));
  }
}

export { createPaint, type Paint } from './paint.js';
export { describeProcesses } from './describe-processes.js';
export { sanitizeOutput } from './sanitize-output.js';
