import type { FleetMember, FleetReport } from '../fleet/types.js';
import { redactDiagnosis } from '../redaction/index.js';
import type { IncidentPage, PageReport } from '../reporting/html/incident-page.js';
import { renderHtml } from '../reporting/html/render-html.js';
import type { StartTimeline } from '../timeline/build-timeline.js';
import type { Diagnosis } from '../types/diagnosis.js';
import { VERSION } from '../version.js';

/** What a command knows of one log it diagnosed, for a page. */
export interface PageInput {
  label: string | null;
  diagnosis: Diagnosis;
  timeline: StartTimeline | null;
}

/** A page's entry: a diagnosed log, or a fleet member that may have no log, with what became of it. */
interface PageEntry extends Omit<PageInput, 'diagnosis'> {
  diagnosis: Diagnosis | null;
  outcome?: PageReport['outcome'];
  groupFix?: number;
}

/**
 * The one way a command writes an incident page: the same redaction as every other report, the version
 * and the time it was written. The clock is read here, at the edge; the page itself is rendered purely.
 */
export function renderPage(
  inputs: readonly PageEntry[],
  options: {
    redact: boolean;
    findings?: IncidentPage['findings'];
    groups?: IncidentPage['groups'];
    target?: string;
    now?: Date;
  },
): string {
  const reports: PageReport[] = inputs.map((input) => ({
    label: input.label,
    diagnosis: options.redact && input.diagnosis ? redactDiagnosis(input.diagnosis) : input.diagnosis,
    timeline: input.timeline,
    ...(input.outcome ? { outcome: input.outcome } : {}),
    ...(input.groupFix === undefined ? {} : { groupFix: input.groupFix }),
  }));
  const now = options.now ?? new Date();
  return renderHtml({
    ...(options.target === undefined ? {} : { target: options.target }),
    reports,
    groups: options.groups ?? [],
    findings: options.findings ?? null,
    vigilVersion: VERSION,
    redacted: options.redact,
    generatedAt: `${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  });
}

/**
 * A fleet as a page: a summary row per member (pod, container, host) with its cause, the groups by root
 * cause (a peer group says whose failure it waited on), then each member's own diagnosis.
 */
export function renderFleetPage(report: FleetReport, options: { redact: boolean; now?: Date }): string {
  const failing = report.groups.filter((group) => group.role !== 'healthy');
  // Each fix once, numbered as the page lists them; a member's section points at its own.
  const fixes = failing.flatMap((group) => group.fixes);
  const fixOf = new Map(fixes.flatMap((fix, index) => fix.members.map((name) => [name, index] as const)));
  const inputs: PageEntry[] = report.members.map((member) => {
    const groupFix = fixOf.get(member.name);
    return {
      label: member.name,
      diagnosis: member.diagnosis,
      timeline: null,
      outcome: { failed: member.cause.kind !== 'none', summary: describeMember(member) },
      ...(groupFix === undefined ? {} : { groupFix }),
    };
  });
  const groups = failing.map((group) => ({
    cause:
      group.role === 'peer' && group.waitingOn.length > 0
        ? `${group.summary} (died waiting for ${group.waitingOn.join(', ')})`
        : group.summary,
    members: group.members,
    fixes: group.fixes,
  }));
  return renderPage(inputs, { ...options, groups, target: report.target });
}

function describeMember(member: FleetMember): string {
  if (member.cause.kind === 'none') return 'no failure';
  const peer = member.cause.peer ? ' (it waited on a peer that failed)' : '';
  return `${member.cause.summary}${peer}`;
}
