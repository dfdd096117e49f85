import type { Incident } from './incidents.js';

export type TargetState = 'starting' | 'ready' | 'failed' | 'stopped';
const STATES: readonly TargetState[] = ['starting', 'ready', 'failed', 'stopped'];

/** What the watcher counts of one target, for /metrics. */
export interface TargetMetrics {
  state: TargetState | null;
  starts: number;
  /** `category\u0000signature` → failures. */
  failures: Record<string, number>;
  timeToReadySeconds: number | null;
  lastFailureSeconds: number | null;
}

export interface WatcherMetrics {
  targets: Record<string, TargetMetrics>;
  /** Receiver → deliveries that failed (each failed attempt). */
  notificationsFailed: Record<string, number>;
}

export function emptyTargetMetrics(): TargetMetrics {
  return { state: null, starts: 0, failures: {}, timeToReadySeconds: null, lastFailureSeconds: null };
}

/** Prometheus' text exposition format (version 0.0.4): one family per line group, HELP and TYPE first. */
export function renderMetrics(metrics: WatcherMetrics, incidents: readonly Incident[]): string {
  const out: string[] = [];
  const family = (name: string, type: string, help: string, samples: string[]): void => {
    out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, ...samples);
  };
  const targets = Object.entries(metrics.targets);
  family(
    'vigil_target_state',
    'gauge',
    'Whether the target is in this state now (1) or not (0).',
    targets.flatMap(([target, m]) =>
      STATES.map((state) => sample('vigil_target_state', { target, state }, m.state === state ? 1 : 0)),
    ),
  );
  family(
    'vigil_target_starts_total',
    'counter',
    'Starts of the target seen by this watcher.',
    targets.map(([target, m]) => sample('vigil_target_starts_total', { target }, m.starts)),
  );
  family(
    'vigil_target_failures_total',
    'counter',
    'Failed starts and deaths while serving, by the diagnosis category and signature.',
    targets.flatMap(([target, m]) =>
      Object.entries(m.failures).map(([key, count]) => {
        const [category = '', signature = ''] = key.split('\u0000');
        return sample('vigil_target_failures_total', { target, category, signature }, count);
      }),
    ),
  );
  family(
    'vigil_target_time_to_ready_seconds',
    'gauge',
    'How long the latest start that became ready took.',
    targets.flatMap(([target, m]) =>
      m.timeToReadySeconds === null
        ? []
        : [sample('vigil_target_time_to_ready_seconds', { target }, m.timeToReadySeconds)],
    ),
  );
  family(
    'vigil_target_last_failure_timestamp_seconds',
    'gauge',
    'Unix time of the latest failure.',
    targets.flatMap(([target, m]) =>
      m.lastFailureSeconds === null
        ? []
        : [sample('vigil_target_last_failure_timestamp_seconds', { target }, m.lastFailureSeconds)],
    ),
  );
  family(
    'vigil_incidents_open',
    'gauge',
    'Open incidents (failure causes not yet followed by a ready start).',
    targets.map(([target]) =>
      sample(
        'vigil_incidents_open',
        { target },
        incidents.filter((incident) => incident.target === target && incident.status === 'open').length,
      ),
    ),
  );
  family(
    'vigil_notifications_failed_total',
    'counter',
    'Notification attempts that failed, by receiver (each is retried).',
    Object.entries(metrics.notificationsFailed).map(([receiver, count]) =>
      sample('vigil_notifications_failed_total', { receiver }, count),
    ),
  );
  return `${out.join('\n')}\n`;
}

function sample(name: string, labels: Record<string, string>, value: number): string {
  const text = Object.entries(labels)
    .map(([key, label]) => `${key}="${escapeLabel(label)}"`)
    .join(',');
  return `${name}{${text}} ${Number.isFinite(value) ? String(value) : 'NaN'}`;
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}
