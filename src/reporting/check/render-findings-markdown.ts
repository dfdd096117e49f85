import type { Finding } from '../../checks/index.js';
import { codeSpan, escapeMarkdownHtml as esc, fence } from '../markdown-text.js';
import { describeCounts, sortFindings } from './sort-findings.js';

const MARK = { error: '❌', warning: '⚠️', info: 'ℹ️' } as const;

/**
 * Findings as Markdown for issues and pull requests: a summary line, then one section each. Names, versions
 * and details come from packages' metadata: in code, or with their HTML escaped.
 */
export function renderFindingsMarkdown(findings: readonly Finding[]): string {
  const lines = [`**${describeCounts(findings)}**`, ''];
  for (const finding of sortFindings(findings)) {
    lines.push(
      `### ${MARK[finding.severity]} ${esc(finding.title)} (${codeSpan(finding.id)}, ${finding.severity})`,
      '',
    );
    lines.push(esc(finding.detail), '');
    if (finding.fix !== null) lines.push('Fix:', '', fence(finding.fix, 'sh'), '');
    if (finding.packages.length > 0)
      lines.push(`Packages: ${finding.packages.map((p) => codeSpan(p)).join(', ')}`, '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
