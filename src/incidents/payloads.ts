import { redactDiagnosis, redactText } from '../redaction/index.js';
import type { Diagnosis } from '../types/diagnosis.js';
import type { Incident } from './incidents.js';

/** The webhook body's schema name; a change that breaks a reader gets a new version. */
export const WEBHOOK_SCHEMA = 'vigil.incident.v1';

export type NotificationKind = 'firing' | 'resolved';

/** What every receiver is told of an incident, secrets redacted as in reports (unless --no-redact). */
export interface IncidentNotice {
  kind: NotificationKind;
  incident: Incident;
  /** The diagnosis of the failure that opened the incident; null when the state folder lost it. */
  diagnosis: Diagnosis | null;
  /** The incident's HTML page on the watcher's host. */
  pagePath: string;
  redact: boolean;
}

function clean(notice: IncidentNotice): { incident: Incident; diagnosis: Diagnosis | null } {
  if (!notice.redact) return { incident: notice.incident, diagnosis: notice.diagnosis };
  const incident = notice.incident;
  return {
    incident: {
      ...incident,
      cause: redactText(incident.cause),
      fix: incident.fix === null ? null : redactText(incident.fix),
    },
    diagnosis: notice.diagnosis === null ? null : redactDiagnosis(notice.diagnosis),
  };
}

/**
 * `--webhook URL`: one JSON object per firing or resolution (README: "Webhook schema").
 * `{schema, kind, incident: {id, target, host, engine, category, signature, cause, fix, phase, status,
 * count, firstSeen, lastSeen, resolvedAt}, page, diagnosis}`.
 */
export function webhookBody(notice: IncidentNotice): string {
  const { incident, diagnosis } = clean(notice);
  const { delivered: _delivered, ...fields } = incident;
  return JSON.stringify({
    schema: WEBHOOK_SCHEMA,
    kind: notice.kind,
    incident: fields,
    page: notice.pagePath,
    diagnosis,
  });
}

/**
 * `--alertmanager URL`: Alertmanager's v2 API (`POST /api/v2/alerts`), one alert per incident. The labels
 * name the incident (Alertmanager groups and dedupes on them); a resolution is the same labels with
 * `endsAt` set to when it resolved.
 */
export function alertmanagerBody(notice: IncidentNotice, now: Date): string {
  const { incident } = clean(notice);
  const alert = {
    labels: {
      alertname: 'VigilServerFailure',
      target: incident.target,
      host: incident.host,
      engine: incident.engine ?? 'unknown',
      category: incident.category,
      signature: incident.signature,
      incident: incident.id,
    },
    annotations: {
      root_cause: incident.cause,
      fix: incident.fix ?? '',
      page: notice.pagePath,
      count: String(incident.count),
    },
    startsAt: incident.firstSeen,
    ...(notice.kind === 'resolved' ? { endsAt: incident.resolvedAt ?? now.toISOString() } : {}),
    generatorURL: `file://${notice.pagePath}`,
  };
  return JSON.stringify([alert]);
}

/** `--slack-webhook URL`: Slack's incoming-webhook message, with blocks for the cause and the fix. */
export function slackBody(notice: IncidentNotice): string {
  const { incident } = clean(notice);
  const head =
    notice.kind === 'resolved'
      ? `Resolved: ${incident.target} is ready again`
      : `${incident.target} failed (${incident.phase}): ${incident.cause}`;
  const blocks: unknown[] = [
    { type: 'header', text: { type: 'plain_text', text: cut(head, 150) } },
    {
      type: 'section',
      text: { type: 'mrkdwn', text: cut(`*Root cause:* ${incident.cause}`, 3000) },
    },
  ];
  if (incident.fix !== null)
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: cut(`*Fix:* ${incident.fix}`, 3000) } });
  blocks.push({
    type: 'context',
    elements: [
      {
        type: 'mrkdwn',
        text: cut(
          `${incident.host} · ${incident.engine ?? 'engine unknown'} · ${incident.signature} · ` +
            `${incident.count} failure(s) since ${incident.firstSeen} · page: ${notice.pagePath}`,
          3000,
        ),
      },
    ],
  });
  return JSON.stringify({ text: head, blocks });
}

/** `--on-failure CMD`'s stdin: the webhook's JSON, and a few fields in its environment. */
export function hookEnvironment(notice: IncidentNotice): Record<string, string> {
  const { incident } = clean(notice);
  return {
    VIGIL_EVENT: notice.kind,
    VIGIL_INCIDENT_ID: incident.id,
    VIGIL_TARGET: incident.target,
    VIGIL_HOST: incident.host,
    VIGIL_CATEGORY: incident.category,
    VIGIL_SIGNATURE: incident.signature,
    VIGIL_COUNT: String(incident.count),
    VIGIL_PAGE: notice.pagePath,
  };
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
