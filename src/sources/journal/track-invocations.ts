import { fieldText, type JournalEntry } from './format-journal-entry.js';

/**
 * systemd's words for an invocation that ended badly. `Failed with result` covers failing ExecStartPre
 * and start timeouts; `Main process exited` with a status other than 0/SUCCESS covers the rest.
 */
const FAILURE =
  /Failed with result '|Main process exited, code=(?!exited, status=0\/SUCCESS)|Failed to start |killed by the OOM killer/;

/** PID 1 writes about units with INVOCATION_ID (and UNIT); the unit's own processes carry _SYSTEMD_*. */
export function isSystemdEntry(entry: JournalEntry): boolean {
  return fieldText(entry, '_PID') === '1' || fieldText(entry, 'SYSLOG_IDENTIFIER') === 'systemd';
}

function invocationOf(entry: JournalEntry, systemd: boolean): string | undefined {
  return fieldText(entry, systemd ? 'INVOCATION_ID' : '_SYSTEMD_INVOCATION_ID');
}

export interface InvocationChoice {
  /** The invocation whose app lines to keep; undefined when the journal names none (old systemd). */
  target: string | undefined;
  targetFailed: boolean;
  invocations: number;
  failed: number;
  entries: number;
}

/** First pass: remembers only invocation ids and which failed, so memory does not grow with the log. */
export function createInvocationTracker(): { note(entry: JournalEntry): void; choose(): InvocationChoice } {
  const seen = new Set<string>();
  const order: string[] = [];
  const failed = new Set<string>();
  let current: string | undefined;
  let entries = 0;
  return {
    note(entry) {
      entries += 1;
      const systemd = isSystemdEntry(entry);
      const id = invocationOf(entry, systemd);
      if (id !== undefined && !seen.has(id)) {
        seen.add(id);
        order.push(id);
      }
      current = id ?? current;
      const owner = id ?? current;
      if (systemd && owner !== undefined && FAILURE.test(fieldText(entry, 'MESSAGE') ?? ''))
        failed.add(owner);
    },
    choose() {
      const lastFailed = order.findLast((id) => failed.has(id));
      const target = lastFailed ?? order.at(-1);
      return {
        target,
        targetFailed: lastFailed !== undefined,
        invocations: order.length,
        failed: failed.size,
        entries,
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
