import type { CheckReport } from '../../environment/run-check.js';
import { renderFindingsMarkdown } from './render-findings-markdown.js';
import { renderFindingsText, type TextOptions } from './render-findings-text.js';
import { sortFindings } from './sort-findings.js';

export type ReportFormat = 'text' | 'json' | 'markdown';

export function renderCheck(report: CheckReport, format: ReportFormat, options: TextOptions): string {
  if (format === 'json')
    return `${JSON.stringify({ ...report, findings: sortFindings(report.findings) }, null, 2)}\n`;
  if (format === 'markdown') return renderCheckMarkdown(report);
  return `${describeEnvironment(report)}\n\n${renderFindingsText(report.findings, options)}`;
}

function describeEnvironment({ environment }: CheckReport): string {
  const python = environment.python === null ? '' : ` of ${environment.python}`;
  const version = environment.pythonVersion === null ? '' : ` (Python ${environment.pythonVersion})`;
  const folders = environment.sitePackages.join(', ') || 'no site-packages';
  return `Checked ${environment.distributions} distributions${python}${version} in ${folders}`;
}

function renderCheckMarkdown(report: CheckReport): string {
  const { environment } = report;
  const header = [
    '## vigil check',
    '',
    `- Python: \`${environment.python ?? 'none'}\`${environment.pythonVersion === null ? '' : ` (${environment.pythonVersion})`}`,
    `- site-packages: ${environment.sitePackages.map((folder) => `\`${folder}\``).join(', ') || 'none'}`,
    `- Distributions: ${environment.distributions}`,
    '',
  ];
  return `${header.join('\n')}\n${renderFindingsMarkdown(report.findings)}`;
}
