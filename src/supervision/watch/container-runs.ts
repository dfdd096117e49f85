/**
 * The runs of one container as `inspect` showed them, and which run a timestamped log line belongs to.
 *
 * A container's log is one stream across its restarts: `podman logs --follow` goes on into the next run
 * when the restart comes before it noticed the death, and a run's first lines can be stamped a little
 * before the StartedAt inspect gives it (podman sets StartedAt once the runtime's start returned). A run's
 * end is sharper: FinishedAt is when the process exited, after its last line and before any restart could
 * begin. So a line belongs to the first run, in order, that had not ended by the line's time.
 */

/** One run: named by its StartedAt (stable across watchers), its end once an inspect saw it. */
export interface ContainerRun {
  key: string;
  startNs: bigint;
  /** When it exited (FinishedAt), or null while it ran at the last look. */
  endNs: bigint | null;
  /** When the run before it ended, where an inspect said: its lines are all later. */
  afterNs: bigint | null;
  /** The runtime's restart count when this run was seen: a count grown by the next run says it failed. */
  restarts: number;
  /** No inspect saw it: known from its lines' times alone, and named by its end. */
  unseen: boolean;
  /** How it ended (`exited 1`) and whether that was a failure, when an inspect saw it stopped. */
  ended: { text: string; failed: boolean } | null;
  /** Its first line's time, where its lines showed it began before its span by time (whole-second times). */
  firstLineNs?: bigint;
}

/** What one inspect tells of the runs: the current (or last) run and the end of the one before. */
export interface RunSighting {
  startedAt: string | null;
  finishedAt: string | null;
  running: boolean;
  restarts: number;
  ended: { text: string; failed: boolean } | null;
}

/** Pure: an RFC 3339 time (docker's and podman's, any zone, up to nanoseconds) in ns since the epoch. */
export function parseTimeNs(text: string): bigint | null {
  const match = /^(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:?\d\d)$/.exec(text);
  if (match === null) return null;
  const ms = Date.parse(`${match[1]}T${match[2]}${match[4] === 'Z' ? 'Z' : match[4]}`);
  if (Number.isNaN(ms)) return null;
  return BigInt(ms) * 1_000_000n + BigInt((match[3] ?? '').padEnd(9, '0'));
}

/** Pure: ns since the epoch as RFC 3339 in UTC with nine digits, for `logs --since`. */
export function formatTimeNs(ns: bigint): string {
  const seconds = ns / 1_000_000_000n;
  const fraction = (ns % 1_000_000_000n).toString().padStart(9, '0');
  return new Date(Number(seconds) * 1000).toISOString().replace(/\.\d{3}Z$/, `.${fraction}Z`);
}

/**
 * Pure: `logs --timestamps` output line as its time and the line the container wrote. A time in whole
 * seconds (the docker CLI through podman's Docker API prints `2026-12-04T01:18:45Z`) stands for the end
 * of its second, so a line is never taken for earlier than a run that began within that second.
 */
export function splitTimestamp(line: string): { ns: bigint; text: string; coarse: boolean } | null {
  const space = line.indexOf(' ');
  if (space < 20 || space > 40) return null;
  const stamp = line.slice(0, space);
  const ns = parseTimeNs(stamp);
  if (ns === null) return null;
  const coarse = !stamp.includes('.');
  return { ns: coarse ? ns + 999_999_999n : ns, text: line.slice(space + 1), coarse };
}

/** A year-1 time is how docker and podman say "never" (FinishedAt of a container never stopped). */
function realTimeNs(text: string | null): bigint | null {
  const ns = text === null ? null : parseTimeNs(text);
  return ns === null || ns <= 0n ? null : ns;
}

/**
 * The runs seen so far, oldest first. Each sighting adds its run or updates it; a run before the current
 * one that was still open ends at the sighting's FinishedAt (the end of the run before the current).
 */
export class ContainerRuns {
  private readonly runs: ContainerRun[] = [];

  constructor(private readonly name: (startedAt: string) => string) {}

  /** Learns what an inspect said; returns the current run, or null when it named none. */
  learn(sighting: RunSighting): ContainerRun | null {
    const startNs = realTimeNs(sighting.startedAt);
    if (startNs === null || sighting.startedAt === null) return null;
    const finishedNs = realTimeNs(sighting.finishedAt);
    let run = this.runs.find((known) => known.startNs === startNs);
    if (run === undefined) {
      run = {
        key: this.name(sighting.startedAt),
        startNs,
        endNs: null,
        afterNs: null,
        unseen: false,
        restarts: sighting.restarts,
        ended: null,
      };
      this.runs.push(run);
      this.runs.sort((a, b) => (a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : 0));
    }
    if (!sighting.running) {
      run.endNs = finishedNs !== null && finishedNs >= startNs ? finishedNs : startNs;
      run.ended = sighting.ended;
    }
    // While it runs, FinishedAt is the end of the run before it: its own lines come after that.
    if (sighting.running && finishedNs !== null && finishedNs < startNs) run.afterNs ??= finishedNs;
    // Runs before this one that still looked open are over: the last of them at FinishedAt (the end of
    // the run before this one, while this one runs), any earlier at the latest time known not to be later.
    const index = this.runs.indexOf(run);
    for (const earlier of this.runs.slice(0, index)) {
      if (earlier.endNs !== null) continue;
      const end = sighting.running && finishedNs !== null && finishedNs < startNs ? finishedNs : startNs - 1n;
      earlier.endNs = end >= earlier.startNs ? end : earlier.startNs;
    }
    if (this.runs.length > MAX_RUNS) this.runs.splice(0, this.runs.length - MAX_RUNS);
    return run;
  }

  /**
   * The run a line stamped `ns` belongs to, looking from `from` on. Both ends of a run are a little
   * blurred: its first lines can be stamped before its StartedAt, its last ones (read by the runtime
   * after the exit) after its FinishedAt. So a run begins halfway between the end of the run before and
   * its own start, and the last run known, once ended, keeps lines up to a second past its end. A line
   * between two runs' spans is an unseen run's, named by where the next known run begins. `unknown`: later
   * than the end of every run known, a run no inspect has seen yet.
   */
  runAt(ns: bigint, from: ContainerRun | null): ContainerRun | 'unknown' {
    const start = from === null ? 0 : Math.max(0, this.runs.indexOf(from));
    for (let index = start; index < this.runs.length; index += 1) {
      const run = this.runs[index] as ContainerRun;
      const next = this.runs[index + 1];
      if (next !== undefined && ns >= this.beginning(next)) continue;
      const begins = this.beginning(run);
      if (ns < begins && !(run.unseen && run.startNs <= ns)) return this.unseenBefore(run, begins - 1n);
      if (run.endNs === null || ns <= run.endNs + LATE_STAMP_NS) return run;
      return next === undefined ? 'unknown' : this.unseenBefore(next, this.beginning(next) - 1n);
    }
    return 'unknown';
  }

  /**
   * Where a run's lines begin: halfway from the end of the run before, else a little before its start;
   * earlier where its own first line was placed there by what it said.
   */
  private beginning(run: ContainerRun): bigint {
    if (run.unseen) return run.startNs;
    const before = this.runs[this.runs.indexOf(run) - 1];
    const previousEnd = run.afterNs ?? before?.endNs ?? null;
    const byTime =
      previousEnd !== null && previousEnd < run.startNs
        ? (previousEnd + run.startNs) / 2n
        : run.startNs - EARLY_STAMP_NS;
    return run.firstLineNs !== undefined && run.firstLineNs < byTime ? run.firstLineNs : byTime;
  }

  /** The run's first line is stamped `ns`: its lines from there on are its own, whatever the time says. */
  claim(run: ContainerRun, ns: bigint): void {
    if (run.firstLineNs === undefined || ns < run.firstLineNs) run.firstLineNs = ns;
  }

  /**
   * A run an inspect saw whose lines so far were the run before's (the same whole second holds both): those
   * lines become an unseen run under the name they were given, and the run keeps its start, for the next
   * inspect to find, under a new name from its first line at `ns`. Returns the run from `ns` on.
   */
  splitSeen(run: ContainerRun, ns: bigint, failed: boolean): ContainerRun {
    const later: ContainerRun = { ...run, key: `${run.key}+${formatTimeNs(ns)}`, firstLineNs: ns };
    Object.assign(run, {
      startNs: run.startNs - 1n,
      endNs: ns - 1n,
      unseen: true,
      restarts: Math.max(0, run.restarts - 1),
      ended: { text: 'exited (seen in its logs only)', failed },
    });
    delete run.firstLineNs;
    this.runs.splice(this.runs.indexOf(run) + 1, 0, later);
    return later;
  }

  /** A run between the one before `run` and `run` that no inspect saw; its lines end by `endNs`. */
  private unseenBefore(run: ContainerRun, endNs: bigint): ContainerRun {
    const index = this.runs.indexOf(run);
    const before = this.runs[index - 1];
    const unseen: ContainerRun = {
      key: this.name(`ended ${formatTimeNs(endNs)}`),
      startNs: before?.endNs === undefined || before.endNs === null ? 0n : before.endNs + LATE_STAMP_NS + 1n,
      endNs,
      afterNs: before?.endNs ?? null,
      unseen: true,
      restarts: Math.max(before?.restarts ?? 0, run.restarts - 1),
      ended: { text: 'exited (seen in its logs only)', failed: run.restarts > (before?.restarts ?? 0) },
    };
    this.runs.splice(index, 0, unseen);
    return unseen;
  }

  /**
   * Splits an unseen run where its lines show a new start (the engine's first line again): runs that came
   * and went between two looks are told apart by what they printed. Returns the later part.
   */
  splitUnseen(run: ContainerRun, ns: bigint): ContainerRun {
    const later: ContainerRun = {
      ...run,
      key: `${run.key}+${formatTimeNs(ns)}`,
      startNs: ns,
      afterNs: ns - 1n,
    };
    run.endNs = ns - 1n;
    this.runs.splice(this.runs.indexOf(run) + 1, 0, later);
    return later;
  }

  /** The newest run known. */
  latest(): ContainerRun | null {
    return this.runs.at(-1) ?? null;
  }

  /** The run after `run`, if one is known. */
  after(run: ContainerRun): ContainerRun | null {
    return this.runs[this.runs.indexOf(run) + 1] ?? null;
  }
}

/**
 * How much earlier than its StartedAt a run's first line may be stamped where the end of the run before
 * is not known (podman stamped one 11 ms early here), and how much later than its FinishedAt its last
 * (podman stamped a dying run's last burst after it).
 */
const EARLY_STAMP_NS = 500_000_000n;
const LATE_STAMP_NS = 1_000_000_000n;

/** Runs kept: a crash loop for days must not grow the list; only the last few are ever looked up. */
const MAX_RUNS = 16;
