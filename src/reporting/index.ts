import type { Diagnosis } from '../types/diagnosis.js';
import { VERSION } from '../version.js';
import { createPaint } from './paint.js';
import { renderMarkdown } from './render-markdown.js';
import { renderText, type TextOptions } from './render-text.js';
import { sanitizeOutput } from './sanitize-output.js';

export type ReportFormat = 'text' | 'json' | 'markdown';
export const REPORT_FORMATS: readonly ReportFormat[] = ['text', 'json', 'markdown'];

/** The report as text safe to print: a library caller gets the same neutralised controls as the CLI. */
/** How a report is written; `width` and `brief` shape the text one (render-text.ts). */
export interface RenderOptions extends TextOptions {
  format: ReportFormat;
  color: boolean;
}

export function renderDiagnosis(d: Diagnosis, options: RenderOptions): string {
  return sanitizeOutput(renderUnsanitized(d, options), options.color ? 'own' : 'none');
}

function renderUnsanitized(d: Diagnosis, options: RenderOptions): string {
  switch (options.format) {
    case 'json': {
      // Which vigil wrote it: a report outlives the install that made it.
      const { schemaVersion, ...rest } = d;
      return `${JSON.stringify({ schemaVersion, vigilVersion: VERSION, ...rest }, null, 2)}\n`;
    }
    case 'markdown':
      return renderMarkdown(d);
    case 'text':
      return renderText(d, createPaint(options.color), {
        ...(options.width === undefined ? {} : { width: options.width }),
        ...(options.brief === undefined ? {} : { brief: options.brief }),
      });
  }
}

export { createPaint, type Paint } from './paint.js';
export { describeProcesses } from './describe-processes.js';
export { sanitizeOutput } from './sanitize-output.js';
