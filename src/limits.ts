/**
 * Every bound Vigil puts on what its input can make it hold or do, in one place. Each table that grows with
 * the input stops at its cap and counts what it dropped; each file is read only up to its cap.
 */
export const LIMITS = {
  /** A METADATA, PKG-INFO, RECORD, INSTALLER, requires.txt or direct_url.json (the largest real METADATA, a
   * long description included, is a few MB). */
  packageFileBytes: 16 * 1024 * 1024,
  /** A user rule file (YAML or JSON): rules are a few KB each. */
  ruleFileBytes: 4 * 1024 * 1024,
  /** A snapshot file (about 200 bytes per distribution; 16 MB is 80,000 of them). */
  snapshotFileBytes: 16 * 1024 * 1024,
  /** Distributions a snapshot may list. */
  snapshotDistributions: 100_000,
  /** Requires-Dist lines read from one METADATA. */
  requirementsPerPackage: 10_000,
  /** Tracebacks one chain ("During handling of the above exception...") links back through. */
  tracebackChain: 32,
  /** A server's output waiting for a reader that does not keep up (a stalled pipe): dropped past this. */
  outputBacklogBytes: 8 * 1024 * 1024,
  /** Characters of any one input a user or built-in pattern sees. */
  patternInputChars: 4096,
  /** Process names (a tag, a pod) with state of their own (an open or last traceback, a start marker), and
   * names one failure lists: a log of a million `(Worker_N pid=N)` tags took 1.7 GB. Real logs have 8 or
   * 64 workers, or a few hundred pods. */
  processNames: 4096,
  /** stdin or a pipe (no size of its own), read as a log: `yes | vigil diagnose -` never ends. A log
   * longer than this is given by its path, or narrowed (journalctl --since). */
  pipeInputBytes: 2 * 1024 * 1024 * 1024,
  /** Bytes of stdin or a pipe without a line break: past them it is no log (`cat /dev/zero`). The longest
   * real log lines (a request's prompt, a `non-default args` dump) are a few MB. */
  pipeLineBreakBytes: 64 * 1024 * 1024,
  /** `kubectl get events` JSON read for one pod: Kubernetes folds repeats into one event with a count, so a
   * real pod has tens of events (about 1 KB each); 50 MB of them per pod took 757 MB in a fleet of 8. */
  podEventsJsonBytes: 4 * 1024 * 1024,
  /** Events kept per pod (Warnings first): what the fleet report and the probe-kill finding read. */
  podEvents: 256,
} as const;
