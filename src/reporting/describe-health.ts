import type { Diagnosis } from '../types/diagnosis.js';

/** How a report words a log with no failure in it: a tick only where the log shows the server healthy. */
export interface AllClear {
  /** The log shows health: the server said it was ready, or it was stopped as asked. */
  healthy: boolean;
  headline: string;
  /** Where to look when the server is not running after all (a death that left no line). */
  hint: string | null;
}

const DIED_SILENTLY =
  'if the server is not running, it died without a word in this log: look for the OOM killer (`journalctl -k | grep -i -e oom -e killed`) and at how it exited (`systemctl status UNIT`, `docker inspect NAME`)';

/** Pure. `health` is absent in reports written before it was added: those are read as before. */
export function describeAllClear(d: Diagnosis): AllClear {
  if (d.health !== 'unseen') return { healthy: true, headline: 'no failure found', hint: null };
  return {
    healthy: false,
    headline: 'no failure line found, and no sign the server became ready',
    hint: DIED_SILENTLY,
  };
}
