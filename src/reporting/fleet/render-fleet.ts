import type { FleetGroup, FleetMember, FleetReport } from '../../fleet/types.js';
import type { ReportFormat } from '../index.js';
import { createPaint, type Paint } from '../paint.js';
import { codeSpan, escapeMarkdownHtml } from '../markdown-text.js';

/** A fleet's result in one of the three formats. Pure. */
export function renderFleet(report: FleetReport, options: { format: ReportFormat; color: boolean }): string {
  switch (options.format) {
    case 'json':
      return `${JSON.stringify(toJson(report), null, 2)}\n`;
    case 'markdown':
      return renderFleetMarkdown(report);
    case 'text':
      return renderFleetText(report, createPaint(options.color));
  }
}

/** One entry per member (its cause, state, and diagnosis's essentials) plus the groups. */
function toJson(report: FleetReport): unknown {
  return {
    schemaVersion: report.schemaVersion,
    target: report.target,
    total: report.total,
    failed: report.failed,
    groups: report.groups.map((group) => ({ ...group, count: group.members.length })),
    members: report.members.map((member) => ({
      name: member.name,
      source: member.source,
      cause: member.cause,
      state: member.state,
      events: member.events,
      ...(member.eventsNote === undefined ? {} : { eventsNote: member.eventsNote }),
      error: member.error,
      diagnosis: member.diagnosis,
    })),
  };
}

function roleWords(group: FleetGroup): string {
  if (group.role === 'peer') return `died because a peer did (waiting on ${group.waitingOn.join(', ')})`;
  if (group.role === 'healthy') return 'no failure';
  if (group.role === 'unreadable') return 'could not be read';
  return group.kind === 'killed' ? 'killed from outside' : 'own cause';
}

function headline(report: FleetReport): string {
  const own = report.groups.filter((group) => group.role === 'own').length;
  if (report.failed === 0) return `no failure found in ${report.total} of ${report.total}`;
  return `${report.failed} of ${report.total} failed, ${own} root cause${own === 1 ? '' : 's'}`;
}

function renderFleetText(report: FleetReport, paint: Paint): string {
  const out = [
    `${paint.bold(`vigil fleet: ${report.target}`)}: ${report.failed === 0 ? paint.green(headline(report)) : paint.red(headline(report))}`,
    '',
  ];
  for (const group of report.groups) {
    const mark =
      group.role === 'own'
        ? paint.red('✖')
        : group.role === 'peer'
          ? paint.yellow('↳')
          : group.role === 'healthy'
            ? paint.green('✔')
            : paint.yellow('?');
    out.push(`${mark} ${paint.bold(`${group.members.length} of ${report.total}`)}: ${group.summary}`);
    out.push(
      `  ${paint.dim(roleWords(group))}${group.signature === null ? '' : paint.dim(` [${group.signature}]`)}`,
    );
    out.push(`  ${group.members.join(', ')}`);
    // The group's members are named above; with several fixes, each names the members it is for.
    for (const { members, fix, verify } of group.fixes) {
      const whose = group.fixes.length === 1 ? 'fix' : `fix for ${members.join(', ')}`;
      out.push(`  ${whose}: ${paint.bold(fix.replace(/\n/g, '\n    '))}`);
      if (verify !== undefined) out.push(`  ${paint.dim(`verify: ${verify}`)}`);
    }
    out.push('');
  }
  for (const member of report.members) {
    if (member.state === null) continue;
    const state = describeState(member);
    if (state !== '') out.push(paint.dim(`${member.name}: ${state}`));
  }
  for (const member of report.members) {
    if (member.eventsNote !== undefined) out.push(paint.dim(`${member.name}: ${member.eventsNote}`));
  }
  return `${out.join('\n').trimEnd()}\n`;
}

function renderFleetMarkdown(report: FleetReport): string {
  const out = [`## Vigil fleet: ${escapeMarkdownHtml(report.target)}`, '', `**${headline(report)}**`, ''];
  out.push('| Pods | Cause | Kind | Members |', '|---:|---|---|---|');
  for (const group of report.groups) {
    out.push(
      `| ${group.members.length} of ${report.total} | ${cell(group.summary)} | ${roleWords(group)} | ${group.members.map(cellCode).join(', ')} |`,
    );
  }
  const fixes = report.groups.flatMap((group) => group.fixes);
  if (fixes.length > 0) out.push('', '### Fixes');
  for (const { members, fix, verify } of fixes) {
    out.push('', `For ${members.map(cellCode).join(', ')}:`, '', fence(fix));
    if (verify !== undefined) out.push('', `Then: ${codeSpan(verify)}`);
  }
  out.push('', '### Members', '', '| Member | Cause | State | Read |', '|---|---|---|---|');
  for (const member of report.members) {
    out.push(
      `| ${cellCode(member.name)} | ${cell(member.cause.summary)}${member.cause.peer ? ' (peer)' : ''} | ${cell([describeState(member), member.eventsNote ?? ''].filter((part) => part !== '').join('; '))} | ${cell(member.source ?? member.error ?? '')} |`,
    );
  }
  return `${out.join('\n')}\n`;
}

function describeState(member: FleetMember): string {
  const state = member.state;
  if (state === null) return '';
  const parts: string[] = [];
  if (state.waiting !== null) parts.push(state.waiting);
  if (state.restartCount > 0) parts.push(`${state.restartCount} restarts`);
  const ended = state.terminated;
  if (ended !== null)
    parts.push(`last exit ${ended.exitCode ?? '?'}${ended.reason === null ? '' : ` (${ended.reason})`}`);
  return parts.join(', ');
}

/** A fenced block longer than any run of backticks in the text, so the text cannot close it. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}sh\n${text}\n${marks}`;
}

/** A table cell: no `|` or line break ends it, and no HTML from a pod's output renders. */
function cell(text: string): string {
  return escapeMarkdownHtml(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** A name in code inside a table cell: a `|` in it would still end the cell. */
function cellCode(text: string): string {
  return codeSpan(text).replace(/\|/g, '\\|');
}
