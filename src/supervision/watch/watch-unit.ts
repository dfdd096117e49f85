import { readFile } from 'node:fs/promises';
import { onHost } from '../../sources/index.js';
import { followJournal, readJournal } from '../../sources/journal/follow-journal.js';
import { describeInvocation } from '../../sources/journal/read-unit-journal.js';
import {
  fieldText,
  formatJournalEntry,
  type JournalEntry,
} from '../../sources/journal/format-journal-entry.js';
import type { JournalQuery } from '../../sources/journal/journalctl-args.js';
import { invocationOf, isSystemdEntry } from '../../sources/journal/track-invocations.js';
import type { CommandRunner } from '../../system/run-command.js';
import { readUnitState, stopUnit, type UnitState } from '../../sources/journal/unit-state.js';
import type { InvocationSummary, ServiceRecord } from './track-starts.js';
import { WatchSession, type WatchOptions, type WatchOutcome } from './watch-session.js';

export interface WatchUnitOptions extends WatchOptions {
  /** The unit's full name, `vllm.service`. */
  unit: string;
  env: Record<string, string | undefined>;
  journalFiles?: readonly string[];
  journalDirectory?: string;
  /** Where the journal is read from; default: the current invocation's start where systemd says it. */
  since?: string;
  /** Without systemd's start time or --since: how many of the unit's last entries to read (10000). */
  backlogLines?: number;
  /** Keep following after the backlog until the start is ready or fails (default true). */
  follow?: boolean;
  /** Stops the unit after a failed start, so the next restart does not bury its logs. */
  stopOnCrash?: boolean;
  pollMs?: number;
  /** Where systemctl and journalctl run: here (default), or on the host --ssh names. */
  runner?: CommandRunner;
  /** With `continuous`: ends the follow (the watcher was asked to stop). */
  signal?: AbortSignal;
}

export interface WatchUnitResult {
  outcome: WatchOutcome;
  state: UnitState | null;
  /** 0 ready (or nothing to decide), 1 a failed start. */
  exitCode: number;
}

/**
 * `vigil watch --unit NAME`: reads the unit's journal from its current invocation, follows it, and ends
 * at the first verdict: ready (0) or a failed start (1), reported from that invocation's lines alone.
 */
export async function watchUnit(options: WatchUnitOptions): Promise<WatchUnitResult> {
  const emit = options.onEvent ?? ((): void => undefined);
  const state = await readUnitState(options.unit, options.env, options.runner);
  const fromFiles = (options.journalFiles?.length ?? 0) > 0 || options.journalDirectory !== undefined;
  if (state === null && !fromFiles) {
    emit({ type: 'note', text: `systemd is not running here: following ${options.unit}'s journal only` });
  } else if (state !== null) {
    emit({
      type: 'note',
      text: `${options.unit} is ${state.activeState} (${state.subState}), result ${state.result}, ${state.nRestarts} restart(s)`,
    });
  }
  const query: JournalQuery = {
    unit: options.unit,
    files: options.journalFiles,
    directory: options.journalDirectory,
    env: options.env,
    runner: options.runner,
  };
  const session = new WatchSession({
    ...options,
    describeRead: (invocation) => onHost(describeStart(options.unit, invocation), options.runner),
  });
  const since = options.since ?? (fromFiles ? undefined : (state?.startedSince ?? undefined));
  // Streamed to its newest entry: a journal of any size keeps its latest start, never only its oldest.
  const machines = new Set<string>();
  const cursor = await readJournal(
    query,
    { since, lines: since === undefined && !fromFiles ? (options.backlogLines ?? 10_000) : undefined },
    (entry) => {
      const machine = fieldText(entry, '_MACHINE_ID');
      if (machine !== undefined) machines.add(machine);
      session.push(toServiceRecord(entry));
    },
  );
  const follow = options.follow ?? true;
  session.goLive(follow);
  let follower: ReturnType<typeof followJournal> | null = null;
  if (follow) {
    follower = followJournal(query, cursor, (entry) => session.push(toServiceRecord(entry)), options.pollMs);
    follower.ended.then(
      () => session.finish(),
      (error: unknown) => {
        emit({
          type: 'note',
          text: `stopped following: ${error instanceof Error ? error.message : String(error)}`,
        });
        session.finish();
      },
    );
    const stop = (): void => {
      follower?.stop();
      session.finish();
    };
    if (options.signal?.aborted === true) stop();
    else options.signal?.addEventListener('abort', stop, { once: true });
  } else {
    session.finish();
  }
  const outcome = await session.outcome;
  follower?.stop();
  const elsewhere = fromFiles ? await otherHost(machines) : null;
  if (outcome.kind === 'failed' && options.stopOnCrash === true && elsewhere !== null) {
    emit({
      type: 'note',
      text: `not stopping ${options.unit}: the journal comes from ${elsewhere}, and the unit of that name here is another`,
    });
  } else if (outcome.kind === 'failed' && options.stopOnCrash === true) {
    const problem = await stopUnit(options.unit, options.env, options.runner);
    emit({
      type: 'note',
      text:
        problem === null
          ? `stopped ${options.unit} to keep its logs as they are (systemctl start ${options.unit} to try again)`
          : `could not stop ${options.unit}: ${problem}`,
    });
  }
  if (options.continuous === true) return { outcome, state, exitCode: 0 };
  if (outcome.kind === 'inactive') {
    const text = describeUndecided(options.unit, session.tracker.current(), state);
    emit({ type: 'note', text: text.words });
    return { outcome, state, exitCode: text.failed ? 1 : 0 };
  }
  return { outcome, state, exitCode: outcome.kind === 'failed' ? 1 : 0 };
}

/** `journal of vllm.service, failed invocation 3f2a1b0c, Feb 20 23:31:07-23:36:26`, as diagnose says it. */
function describeStart(unit: string, invocation: InvocationSummary): string {
  const micros = (ms: number | null): string | undefined =>
    ms === null ? undefined : String(Math.round(ms * 1000));
  const which = invocation.status === 'failed' ? 'failed invocation' : 'invocation';
  return describeInvocation(unit, which, invocation.id, {
    from: micros(invocation.startedAtMs),
    to: micros(invocation.endedAtMs),
  });
}

/** A journal entry as the start tracker takes it; entries keep their own time, so a backlog keeps its durations. */
function toServiceRecord(entry: JournalEntry): ServiceRecord {
  const systemd = isSystemdEntry(entry);
  const micros = Number(fieldText(entry, '__REALTIME_TIMESTAMP'));
  return {
    text: formatJournalEntry(entry),
    message: fieldText(entry, 'MESSAGE') ?? '',
    systemd,
    invocation: invocationOf(entry, systemd),
    atMs: Number.isFinite(micros) ? micros / 1000 : Date.now(),
  };
}

/**
 * What to say when following stopped before a verdict. systemd's own state comes first: a unit it
 * calls failed is not "still starting" because the journal read had no end for its last start.
 */
function describeUndecided(
  unit: string,
  current: InvocationSummary | null,
  state: UnitState | null,
): { words: string; failed: boolean } {
  if (current?.status === 'failed') {
    return {
      words: `${unit}'s start ${current.index} failed (${current.exit ?? 'no exit status'}); its lines name no cause`,
      failed: true,
    };
  }
  if (state?.activeState === 'failed') {
    return {
      words: `${unit} has failed (result ${state.result}), but the journal read shows no end of its last start; try vigil diagnose --unit ${unit}`,
      failed: true,
    };
  }
  if (current === null) return { words: `no entries for ${unit} in the journal`, failed: false };
  if (current.status === 'stopped')
    return { words: `${unit} stopped (${current.exit ?? 'deactivated'})`, failed: false };
  return {
    words: `${unit} is still starting (${current.progress.phase?.label ?? 'no phase yet'})`,
    failed: false,
  };
}

/**
 * Where journal files were written, when that is not this host: `machine 4f…` (the entries' _MACHINE_ID
 * against /etc/machine-id). Null when they are this host's. Files with no machine id, or a host whose id
 * cannot be read, count as elsewhere: stopping a unit is only safe on the host whose journal was read.
 */
async function otherHost(machines: ReadonlySet<string>): Promise<string | null> {
  let local: string;
  try {
    local = (await readFile('/etc/machine-id', 'utf8')).trim();
  } catch {
    return 'a host vigil cannot tell apart from this one (no /etc/machine-id here)';
  }
  if (machines.has(local)) return null;
  const [first] = machines;
  return first === undefined
    ? 'no known host (its entries carry no machine id)'
    : `another host (machine ${first})`;
}
