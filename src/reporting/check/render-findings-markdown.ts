import type { Finding } from '../../checks/index.js';
import { describeCounts, sortFindings } from './sort-findings.js';

const MARK = { error: '❌', warning: '⚠️', info: 'ℹ️' } as const;

/** Findings as Markdown for issues and pull requests: a summary line, then one section each. */
export function renderFindingsMarkdown(findings: readonly Finding[]): string {
  const lines = [`**${describeCounts(findings)}**`, ''];
  for (const finding of sortFindings(findings)) {
    lines.push(`### ${MARK[finding.severity]} ${finding.title} (\`${finding.id}\`, ${finding.severity})`, '');
    lines.push(finding.detail, '');
    if (finding.fix !== null) lines.push('Fix:', '', '```sh', finding.fix, '```', '');
    if (finding.packages.length > 0)
      lines.push(`Packages: ${finding.packages.map((p) => `\`${p}\``).join(', ')}`, '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
