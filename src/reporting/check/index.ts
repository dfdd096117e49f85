export { renderCheck, type ReportFormat } from './render-check.js';
export { renderDiff, type DiffReport } from './render-diff.js';
export { renderFindingsText, type TextOptions } from './render-findings-text.js';
export { renderFindingsMarkdown } from './render-findings-markdown.js';
export { sortFindings, countFindings, describeCounts } from './sort-findings.js';
