import { fieldText, formatTimestamp, type JournalEntry } from './format-journal-entry.js';
import { judgeEnd } from './systemd-messages.js';

/** PID 1 writes about units with INVOCATION_ID (and UNIT); the unit's own processes carry _SYSTEMD_*. */
export function isSystemdEntry(entry: JournalEntry): boolean {
  return fieldText(entry, '_PID') === '1' || fieldText(entry, 'SYSLOG_IDENTIFIER') === 'systemd';
}

/** The invocation an entry names: systemd's lines say INVOCATION_ID, the unit's own _SYSTEMD_INVOCATION_ID. */
export function invocationOf(entry: JournalEntry, systemd = isSystemdEntry(entry)): string | undefined {
  return fieldText(entry, systemd ? 'INVOCATION_ID' : '_SYSTEMD_INVOCATION_ID');
}

/** Where an invocation's first entry (the first carrying its id) sits in the first pass. */
export interface JournalPosition {
  /** 0-based index among the first pass's entries. */
  ordinal: number;
  /** journalctl's __CURSOR, to start the second pass there. */
  cursor: string | undefined;
}

export interface InvocationChoice {
  /** The invocation whose app lines to keep; undefined when the journal names none (old systemd). */
  target: string | undefined;
  targetFailed: boolean;
  invocations: number;
  failed: number;
  entries: number;
  /** The target's first entry; the second pass can start there. */
  start: JournalPosition | undefined;
  /** The next invocation's first entry, where the target's lines end; undefined for the last one. */
  end: JournalPosition | undefined;
  /** A start after the failed target that has not ended: the unit is up again; when it began. */
  running: { invocation: string; since: string } | undefined;
  /** The target's first and last entries' times (__REALTIME_TIMESTAMP, microseconds). */
  window: { from: string | undefined; to: string | undefined };
}

/**
 * First pass: remembers invocation ids, where each begins and which failed, so memory grows with the
 * number of starts, not with the log.
 */
export function createInvocationTracker(): { note(entry: JournalEntry): void; choose(): InvocationChoice } {
  const firstSeen = new Map<string, JournalPosition>();
  const order: string[] = [];
  const failed = new Set<string>();
  const ended = new Set<string>();
  const began = new Map<string, string | undefined>();
  const lastAt = new Map<string, string>();
  let current: string | undefined;
  let entries = 0;
  return {
    note(entry) {
      const systemd = isSystemdEntry(entry);
      const id = invocationOf(entry, systemd);
      if (id !== undefined && !firstSeen.has(id)) {
        firstSeen.set(id, { ordinal: entries, cursor: fieldText(entry, '__CURSOR') });
        began.set(id, fieldText(entry, '__REALTIME_TIMESTAMP'));
        order.push(id);
      }
      entries += 1;
      current = id ?? current;
      const at = fieldText(entry, '__REALTIME_TIMESTAMP');
      if (current !== undefined && at !== undefined) lastAt.set(current, at);
      const end = systemd && current !== undefined ? judgeEnd(fieldText(entry, 'MESSAGE') ?? '') : null;
      if (current !== undefined && end === 'failed') failed.add(current);
      if (current !== undefined && end !== null) ended.add(current);
    },
    choose() {
      const lastFailed = order.findLast((id) => failed.has(id));
      const target = lastFailed ?? order.at(-1);
      const next = target === undefined ? undefined : order[order.indexOf(target) + 1];
      const latest = order.at(-1);
      const up =
        lastFailed !== undefined && latest !== undefined && latest !== lastFailed && !ended.has(latest);
      return {
        running: up ? { invocation: latest, since: formatTimestamp(began.get(latest)) } : undefined,
        target,
        targetFailed: lastFailed !== undefined,
        invocations: order.length,
        failed: failed.size,
        entries,
        start: target === undefined ? undefined : firstSeen.get(target),
        end: next === undefined ? undefined : firstSeen.get(next),
        window: {
          from: target === undefined ? undefined : began.get(target),
          to: target === undefined ? undefined : lastAt.get(target),
        },
      };
    },
  };
}

/**
 * Second pass: keeps systemd's lines about the unit from every invocation (they tell starts, exits and
 * restarts) and the app lines of the target only. An app line without an invocation id belongs to the
 * invocation seen last, which is how it was written.
 */
export function createInvocationFilter(target: string | undefined): (entry: JournalEntry) => boolean {
  let current: string | undefined;
  return (entry) => {
    const systemd = isSystemdEntry(entry);
    const id = invocationOf(entry, systemd);
    current = id ?? current;
    if (systemd || target === undefined) return true;
    return (id ?? current) === target;
  };
}
