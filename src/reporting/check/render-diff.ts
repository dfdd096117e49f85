import { createColors } from 'picocolors';
import type { Finding } from '../../checks/index.js';
import type { SnapshotDiff } from '../../environment/diff-snapshots.js';
import type { ReportFormat } from './render-check.js';
import { renderFindingsMarkdown } from './render-findings-markdown.js';
import { renderFindingsText, type TextOptions } from './render-findings-text.js';
import { sortFindings } from './sort-findings.js';

export interface DiffReport {
  before: string;
  after: string;
  diff: SnapshotDiff;
  findings: Finding[];
}

/** `vigil diff`: each kind of change, one package a line, then the findings. */
export function renderDiff(report: DiffReport, format: ReportFormat, options: TextOptions): string {
  if (format === 'json') {
    return `${JSON.stringify({ schemaVersion: 1, ...report, findings: sortFindings(report.findings) }, null, 2)}\n`;
  }
  const rows = describeRows(report.diff);
  if (format === 'markdown') {
    const table =
      rows.length === 0 ? ['No changes.'] : ['| Change | Package | From | To |', '|---|---|---|---|'];
    for (const row of rows) table.push(`| ${row.kind} | \`${row.name}\` | ${row.from} | ${row.to} |`);
    return `## vigil diff \`${report.before}\` → \`${report.after}\`\n\n${table.join('\n')}\n\n${renderFindingsMarkdown(report.findings)}`;
  }
  const c = createColors(options.color);
  const paint: Record<string, (text: string) => string> = {
    upgraded: c.green,
    downgraded: c.yellow,
    changed: c.cyan,
    added: c.green,
    removed: c.red,
  };
  const lines = rows.map(
    (row) =>
      `${(paint[row.kind] ?? String)(row.kind.padEnd(10))} ${row.name} ${row.from}${row.to === '' ? '' : ` → ${row.to}`}`,
  );
  const head = `${report.before} → ${report.after}: ${rows.length === 0 ? 'no changes' : `${rows.length} change(s)`}`;
  return `${[head, ...lines].join('\n')}\n\n${renderFindingsText(report.findings, options)}`;
}

interface Row {
  kind: string;
  name: string;
  from: string;
  to: string;
}

function describeRows(diff: SnapshotDiff): Row[] {
  return [
    ...diff.upgraded.map((c) => ({ kind: 'upgraded', ...c })),
    ...diff.downgraded.map((c) => ({ kind: 'downgraded', ...c })),
    ...diff.changed.map((c) => ({
      kind: 'changed',
      name: c.name,
      from: `${c.from} (${c.fromSource})`,
      to: `${c.to} (${c.toSource})`,
    })),
    ...diff.added.map((d) => ({ kind: 'added', name: d.name, from: d.version, to: '' })),
    ...diff.removed.map((d) => ({ kind: 'removed', name: d.name, from: d.version, to: '' })),
  ];
}
