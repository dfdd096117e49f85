import { createColors } from 'picocolors';
import type { Finding } from '../../checks/index.js';
import { describeCounts, sortFindings } from './sort-findings.js';
import { DEFAULT_WIDTH } from '../render-text.js';
import { wrapCommand } from '../wrap-command.js';

export interface TextOptions {
  color: boolean;
  /** Columns to fit the fix commands to: the terminal's (COLUMNS), else 80. */
  width?: number;
}

/** Where a finding's fix starts: `        fix: `. */
const FIX_INDENT = 13;
/** A fix that is one command to copy (not words with a command inside): wrapped with ` \`. */
const COMMAND = /^(?:\/\S+ |uv |pip |python3? |conda |ssh |sudo )(?!.*`)/;

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
    if (finding.fix !== null) {
      const fix = COMMAND.test(finding.fix)
        ? wrapCommand(finding.fix, FIX_INDENT, options.width ?? DEFAULT_WIDTH)
        : finding.fix;
      lines.push(`        ${c.green('fix:')} ${fix}`);
    }
    lines.push('');
  }
  const counts = describeCounts(findings);
  lines.push(findings.some((f) => f.severity === 'error') ? c.red(c.bold(counts)) : c.bold(counts));
  return `${lines.join('\n')}\n`;
}
