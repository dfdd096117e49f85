import { createColors } from 'picocolors';
import type { Finding } from '../../checks/index.js';
import { describeCounts, sortFindings } from './sort-findings.js';

export interface TextOptions {
  color: boolean;
}

/** The findings block shared by check and diff: severity, id and title, then detail, fix and packages. */
export function renderFindingsText(findings: readonly Finding[], options: TextOptions): string {
  const c = createColors(options.color);
  const paint = { error: c.red, warning: c.yellow, info: c.cyan } as const;
  const lines: string[] = [];
  for (const finding of sortFindings(findings)) {
    const label = finding.severity === 'info' ? 'note' : finding.severity;
    lines.push(
      `${paint[finding.severity](c.bold(label.padEnd(7)))} ${c.bold(finding.title)} ${c.dim(`[${finding.id}]`)}`,
    );
    lines.push(`        ${finding.detail}`);
    if (finding.fix !== null) lines.push(`        ${c.green('fix:')} ${finding.fix}`);
    lines.push('');
  }
  const counts = describeCounts(findings);
  lines.push(findings.some((f) => f.severity === 'error') ? c.red(c.bold(counts)) : c.bold(counts));
  return `${lines.join('\n')}\n`;
}
