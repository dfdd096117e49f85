export {
  INCIDENT_LIMITS,
  applyWatcherEvent,
  boundIncidents,
  causeOf,
  emptyIncidentState,
  incidentId,
  markDelivered,
  undelivered,
} from './incidents.js';
export type { Delivery, Incident, IncidentChange, IncidentState, WatcherEvent } from './incidents.js';
export { WEBHOOK_SCHEMA, alertmanagerBody, hookEnvironment, slackBody, webhookBody } from './payloads.js';
export type { IncidentNotice, NotificationKind } from './payloads.js';
export { emptyTargetMetrics, renderMetrics } from './metrics.js';
export type { TargetMetrics, TargetState, WatcherMetrics } from './metrics.js';
