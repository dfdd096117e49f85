import type { Diagnosis } from '../types/diagnosis.js';

/** Where each receiver stands with an incident: its firing and its resolution acknowledged or not. */
export interface Delivery {
  firing: boolean;
  resolved: boolean;
}

/** One failure cause of one target: a crash loop is one incident with a count, not one per restart. */
export interface Incident {
  id: string;
  target: string;
  host: string;
  engine: string | null;
  category: string;
  /** The signature's id, or `general:CATEGORY`, `exception:TYPE`, `unknown` when none matched. */
  signature: string;
  /** The root cause in one line (the signature's title, else the exception and message). */
  cause: string;
  fix: string | null;
  /** Whether the failures came before ready (start-up) or after it (serving). */
  phase: 'start-up' | 'serving';
  status: 'open' | 'resolved';
  count: number;
  firstSeen: string;
  lastSeen: string;
  resolvedAt: string | null;
  /** Receivers that acknowledged, by name (`webhook`, `alertmanager`, ...). */
  delivered: Record<string, Delivery>;
}

export interface IncidentState {
  schemaVersion: 1;
  incidents: Incident[];
  /** The starts already counted, per target (the last few): a watcher run again does not count them twice. */
  seenStarts: Record<string, string[]>;
}

export type WatcherEvent =
  | {
      type: 'failure';
      target: string;
      host: string;
      /** The start's stable name (invocation id, container StartedAt, log offset). */
      startKey: string;
      at: Date;
      diagnosis: Diagnosis;
      /** It had become ready before it failed. */
      serving: boolean;
    }
  | { type: 'ready'; target: string; startKey: string; at: Date };

export interface IncidentChange {
  kind: 'opened' | 'repeated' | 'resolved';
  incident: Incident;
}

export const INCIDENT_LIMITS = { incidents: 200, startsPerTarget: 20 } as const;

export function emptyIncidentState(): IncidentState {
  return { schemaVersion: 1, incidents: [], seenStarts: {} };
}

/** The cause's key and words, as the diagnosis names it: the signature first, then what is known. */
export function causeOf(diagnosis: Diagnosis): {
  signature: string;
  category: string;
  cause: string;
  fix: string | null;
} {
  const root = diagnosis.rootCause;
  const rootWords = root === null ? null : [root.exception, root.message].filter(Boolean).join(': ');
  if (diagnosis.signature !== null) {
    return {
      signature: diagnosis.signature.id,
      category: diagnosis.signature.category,
      cause: diagnosis.signature.title,
      fix: diagnosis.signature.fix,
    };
  }
  const general = diagnosis.general ?? null;
  if (general !== null) {
    return {
      signature: `general:${general.category}`,
      category: general.category,
      cause: rootWords ?? general.meaning,
      fix: null,
    };
  }
  if (root !== null) {
    return {
      signature: `exception:${root.exception ?? 'none'}`,
      category: 'other',
      cause: rootWords ?? root.message,
      fix: null,
    };
  }
  return {
    signature: 'unknown',
    category: 'other',
    cause: 'the server ended; its lines name no cause',
    fix: null,
  };
}

/**
 * The incident logic, data in and data out: a failure opens an incident for its cause on its target or
 * counts into the open one; a start that becomes ready resolves the target's open incidents. A start
 * already counted (the watcher run again over the same log) changes nothing.
 */
export function applyWatcherEvent(
  state: IncidentState,
  event: WatcherEvent,
): { state: IncidentState; changes: IncidentChange[] } {
  const seen = state.seenStarts[event.target] ?? [];
  const mark = `${event.type}:${event.startKey}`;
  if (seen.includes(mark)) return { state, changes: [] };
  const seenStarts = {
    ...state.seenStarts,
    [event.target]: [...seen, mark].slice(-INCIDENT_LIMITS.startsPerTarget),
  };
  const at = event.at.toISOString();
  if (event.type === 'ready') {
    const changes: IncidentChange[] = [];
    const incidents = state.incidents.map((incident) => {
      if (incident.target !== event.target || incident.status !== 'open') return incident;
      const resolved: Incident = { ...incident, status: 'resolved', resolvedAt: at };
      changes.push({ kind: 'resolved', incident: resolved });
      return resolved;
    });
    return { state: { ...state, incidents, seenStarts }, changes };
  }
  const cause = causeOf(event.diagnosis);
  const open = state.incidents.find(
    (incident) =>
      incident.target === event.target &&
      incident.status === 'open' &&
      incident.signature === cause.signature,
  );
  if (open !== undefined) {
    const repeated: Incident = { ...open, count: open.count + 1, lastSeen: at };
    return {
      state: {
        ...state,
        incidents: state.incidents.map((incident) => (incident === open ? repeated : incident)),
        seenStarts,
      },
      changes: [{ kind: 'repeated', incident: repeated }],
    };
  }
  const opened: Incident = {
    id: incidentId(event.target, cause.signature, event.at),
    target: event.target,
    host: event.host,
    engine: event.diagnosis.engine,
    ...cause,
    phase: event.serving ? 'serving' : 'start-up',
    status: 'open',
    count: 1,
    firstSeen: at,
    lastSeen: at,
    resolvedAt: null,
    delivered: {},
  };
  const incidents = boundIncidents([...state.incidents, opened]);
  return { state: { ...state, incidents, seenStarts }, changes: [{ kind: 'opened', incident: opened }] };
}

/** A receiver acknowledged an incident's firing or resolution. */
export function markDelivered(
  state: IncidentState,
  id: string,
  receiver: string,
  kind: 'firing' | 'resolved',
): IncidentState {
  return {
    ...state,
    incidents: state.incidents.map((incident) => {
      if (incident.id !== id) return incident;
      const before = incident.delivered[receiver] ?? { firing: false, resolved: false };
      return { ...incident, delivered: { ...incident.delivered, [receiver]: { ...before, [kind]: true } } };
    }),
  };
}

/** What each receiver has not acknowledged yet: sent again when a watcher starts over its state. */
export function undelivered(
  state: IncidentState,
  receivers: readonly string[],
): { incident: Incident; receiver: string; kind: 'firing' | 'resolved' }[] {
  const due: { incident: Incident; receiver: string; kind: 'firing' | 'resolved' }[] = [];
  for (const incident of state.incidents) {
    for (const receiver of receivers) {
      const delivery = incident.delivered[receiver] ?? { firing: false, resolved: false };
      // An incident that resolved before its firing got through is sent as both, in order: the receiver
      // learns of the failure, then of the recovery.
      if (!delivery.firing) due.push({ incident, receiver, kind: 'firing' });
      if (!delivery.resolved && incident.status === 'resolved')
        due.push({ incident, receiver, kind: 'resolved' });
    }
  }
  return due;
}

/** At most INCIDENT_LIMITS.incidents: the oldest resolved go first, then the oldest open. */
export function boundIncidents(incidents: readonly Incident[]): Incident[] {
  const excess = incidents.length - INCIDENT_LIMITS.incidents;
  if (excess <= 0) return [...incidents];
  const byAge = [...incidents].sort(
    (a, b) =>
      Number(a.status === 'open') - Number(b.status === 'open') || compareText(a.lastSeen, b.lastSeen),
  );
  const dropped = new Set(byAge.slice(0, excess));
  return incidents.filter((incident) => !dropped.has(incident));
}

/** `20260303T101500Z-vllm-service-3f2a1b0c`: sortable, readable, a path segment. */
export function incidentId(target: string, signature: string, at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const slug = target
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40);
  return `${stamp}-${slug || 'target'}-${fnv(`${target}\n${signature}`)}`;
}

function fnv(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** ISO stamps compare as plain text (no locale: its first use loads ICU). */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
