import {
  containerLogArgs,
  containerLogOptions,
  describeContainerLogs,
  inspectContainer,
  type ContainerRuntime,
  type InspectedContainer,
} from '../../sources/containers/index.js';
import { onHost } from '../../sources/index.js';
import type { CommandRunner } from '../../system/run-command.js';
import {
  ContainerRuns,
  formatTimeNs,
  parseTimeNs,
  splitTimestamp,
  type ContainerRun,
  type RunSighting,
} from './container-runs.js';
import { beginsNewStart } from './split-log-starts.js';
import { followLogs, pauseUnlessAborted } from './stream-logs.js';
import { WatchSession, type WatchOptions } from './watch-session.js';

export interface FollowRuntimeOptions extends WatchOptions {
  runtime: ContainerRuntime;
  container: string;
  env: Record<string, string | undefined>;
  runner: CommandRunner;
  signal: AbortSignal;
  /** How often to ask the runtime whether a stopped container runs again (default 2 s). */
  pollMs?: number;
}

/** Between two inspects asked for by held lines: a dying server's last lines do not fork one per line. */
const HELD_INSPECT_GAP_MS = 250;

interface StampedLine {
  ns: bigint;
  text: string;
  /** Arrival order: an inspect begun after a line arrived tells which run the line is from. */
  seq: number;
  /** Stamped in whole seconds (the docker CLI through podman's Docker API): its time places it loosely. */
  coarse: boolean;
}

/** What `inspect` said, in the terms of the run list. */
function sightingOf(info: InspectedContainer): RunSighting {
  const running = info.running && !info.restarting;
  return {
    startedAt: info.startedAt,
    finishedAt: info.finishedAt,
    running,
    restarts: info.restarts,
    ended: running
      ? null
      : {
          text: `exited ${info.exitCode}${info.oomKilled ? ' (OOM killed)' : ''}`,
          failed: info.exitCode !== 0 || info.oomKilled || info.restarting,
        },
  };
}

/**
 * `vigil watch --follow --docker NAME` / `--podman NAME`: every run of the container, each its own start,
 * however soon the runtime restarts it. The logs are read with the runtime's time on each line, and each
 * line goes to the run that had not ended by then (container-runs.ts). A line that may open a new run
 * (the current start failed or ended, or the engine's first line comes again) waits for an inspect begun
 * after it arrived, which says whether the run it would join still runs. A run is named by its StartedAt,
 * so a watcher run again knows the runs it already reported.
 */
export async function followRuntimeContainer(options: FollowRuntimeOptions): Promise<void> {
  await new RuntimeFollower(options).follow();
}

class RuntimeFollower {
  private readonly session: WatchSession;
  private readonly runs: ContainerRuns;
  private readonly emit;
  /** The run the last line went to. */
  private current: ContainerRun | null = null;
  private readonly ended = new Set<string>();
  /** The last line delivered: where the next `logs --since` begins, and how many lines there to skip. */
  private last: { ns: bigint; count: number; coarse: boolean } | null = null;
  private pending: StampedLine[] = [];
  private seq = 0;
  /** Lines up to this arrival were seen before an inspect that found their run still running. */
  private confirmed = 0;
  private inspecting: Promise<void> | null = null;
  private lastInspectAt = 0;
  private maxRestarts = 0;
  /** The container was seen before its first run: its log is read from the beginning. */
  private fromStart = false;

  constructor(private readonly options: FollowRuntimeOptions) {
    const { runtime, container, runner } = options;
    this.session = new WatchSession({
      ...options,
      continuous: true,
      describeRead: () => onHost(describeContainerLogs(runtime, container), runner),
    });
    this.runs = new ContainerRuns((startedAt) => `${runtime.name}:${startedAt}`);
    this.emit = options.onEvent ?? ((): void => undefined);
  }

  async follow(): Promise<void> {
    const { signal } = this.options;
    this.session.goLive(true);
    let warned = false;
    while (!signal.aborted) {
      const sighting = await this.inspect().catch((error: unknown) => {
        // A container removed and made again (compose up) is away for a while: say so once, and go on.
        if (!warned) this.emit({ type: 'note', text: `cannot inspect now: ${String(error)}` });
        warned = true;
        return null;
      });
      const run = sighting === null ? null : this.runs.learn(sighting);
      if (sighting !== null) warned = false;
      // Seen before it ever ran: every run from now on is new, the first one's lines all of them.
      if (sighting !== null && run === null && this.current === null && !this.fromStart) {
        this.fromStart = true;
        this.emit({ type: 'note', text: 'never started yet: its first run is followed from its first line' });
      }
      if (sighting === null || run === null || (!sighting.running && this.ended.has(run.key))) {
        await this.pause();
        continue;
      }
      await this.readStream(sighting);
      if (signal.aborted) break;
      const after = await this.inspect().catch(() => null);
      this.closeStream(after);
      // The stream ended while the same run still runs (the runtime's logs gave up): not at once again.
      if (after?.running === true && this.current?.key === this.runs.learn(after)?.key) await this.pause();
    }
    this.session.finish();
  }

  private pause(): Promise<void> {
    return pauseUnlessAborted(this.options.pollMs ?? 2000, this.options.signal);
  }

  private async inspect(): Promise<RunSighting> {
    const { runtime, container, runner, env } = this.options;
    const sighting = sightingOf(await inspectContainer(runtime, container, runner, env));
    this.maxRestarts = Math.max(this.maxRestarts, sighting.restarts);
    return sighting;
  }

  /** Where this stream begins: after the last line read, or where the run inspect named began. */
  private since(sighting: RunSighting): string | undefined {
    // A whole-second time stands for the end of its second: read again from its start, or the lines
    // later in that second (the next run's, a restart within it) would be left out.
    if (this.last !== null) return formatTimeNs(this.last.ns - (this.last.coarse ? 999_999_999n : 0n));
    if (this.fromStart) return undefined;
    if (!sighting.running) return sighting.startedAt ?? undefined;
    // A run's first lines can be stamped before its StartedAt: read from the end of the run before it;
    // a container that never stopped before (FinishedAt of year 1) has only this run's lines.
    const started = parseTimeNs(sighting.startedAt ?? '');
    const finished = parseTimeNs(sighting.finishedAt ?? '');
    return finished !== null && started !== null && finished > 0n && finished < started
      ? formatTimeNs(finished + 1n)
      : undefined;
  }

  private async readStream(sighting: RunSighting): Promise<void> {
    const { runtime, container, runner, env, signal } = this.options;
    const since = this.since(sighting);
    const args = containerLogArgs({
      container,
      follow: sighting.running,
      timestamps: true,
      ...(since === undefined ? {} : { since }),
    });
    let skip = this.last?.count ?? 0;
    const skipNs = this.last?.ns ?? null;
    let lineNs = skipNs ?? 0n;
    let coarse = false;
    const logs = followLogs(
      runner,
      { program: runtime.program, args, options: containerLogOptions(runtime, Infinity, {}) },
      env,
      (line) => {
        const stamped = splitTimestamp(line);
        // A piece of a line cut at a lone CR (a progress bar) carries its line's time.
        lineNs = stamped?.ns ?? lineNs;
        coarse = stamped?.coarse ?? coarse;
        if (skip > 0 && lineNs === skipNs) {
          skip -= 1;
          return;
        }
        skip = 0;
        this.seq += 1;
        this.pending.push({ ns: lineNs, text: stamped?.text ?? line, seq: this.seq, coarse });
        this.drain();
      },
    );
    const stop = (): void => logs.stop();
    signal.addEventListener('abort', stop, { once: true });
    await logs.ended.catch((error: unknown) =>
      this.emit({ type: 'note', text: `logs ended: ${String(error)}` }),
    );
    signal.removeEventListener('abort', stop);
    await this.inspecting;
  }

  /** The stream ended: every line it gave goes to its run, and a run that is over is ended. */
  private closeStream(after: RunSighting | null): void {
    const latest = after === null ? null : this.runs.learn(after);
    this.confirmed = this.seq;
    this.drain(true);
    if (after === null || latest === null) return;
    const current = this.current;
    if (current === null) {
      if (!after.running) this.ended.add(latest.key);
      return;
    }
    if (current !== latest || !after.running) {
      this.endRun(current, current === latest ? null : this.runs.after(current));
    }
    if (!after.running) this.ended.add(latest.key);
  }

  /** Delivers the waiting lines in order, up to the first that needs an inspect to place it. */
  private drain(force = false): void {
    while (this.pending.length > 0) {
      const line = this.pending[0] as StampedLine;
      const found = this.runs.runAt(line.ns, this.current);
      // Past every known run's end, yet seen before the last inspect: stamped a hair after its run's
      // FinishedAt; it goes to the last run known rather than wait for a run that will not come.
      const settled = force || line.seq <= this.confirmed;
      const run = found !== 'unknown' ? found : settled ? this.runs.latest() : null;
      if (run === null || (!force && (this.mayOpenRun(line, run) || this.awaitsNextRun(line, run)))) {
        this.inspectSoon();
        return;
      }
      this.pending.shift();
      this.deliver(line, run);
    }
  }

  /**
   * Whether a line bound for a run that looked open may be the next run's: the current start already
   * failed or ended (a restart follows a death), or the line is the engine's first again.
   */
  private mayOpenRun(line: StampedLine, run: ContainerRun): boolean {
    if (run !== this.current || this.runs.after(run) !== null || line.seq <= this.confirmed) return false;
    const state = this.session.currentState();
    if (state === null) return false;
    return (
      state.ended || state.failure !== null || beginsNewStart(line.text, state, this.options.engine ?? null)
    );
  }

  /**
   * A line in whole seconds that says a new start began (the engine's first line after the current start
   * failed or ended) while its time places it in the current run: in that second the run ended and the
   * next began, and only what the line says tells them apart.
   */
  private opensNextStart(line: StampedLine, run: ContainerRun): boolean {
    if (!line.coarse || run.unseen || run !== this.current) return false;
    const state = this.session.currentState();
    return (
      state !== null &&
      (state.ended || state.failure !== null) &&
      beginsNewStart(line.text, state, this.options.engine ?? null)
    );
  }

  /** The run that line opens is not known yet (it began before its second): wait for an inspect. */
  private awaitsNextRun(line: StampedLine, run: ContainerRun): boolean {
    return this.opensNextStart(line, run) && this.runs.after(run) === null && !this.startedWithin(line, run);
  }

  /** The run began within the line's whole second: it may be the line's own, the lines before it not. */
  private startedWithin(line: StampedLine, run: ContainerRun): boolean {
    return run.startNs > line.ns - 1_000_000_000n;
  }

  /** Where a line that opens the next start goes: the next run known, or the current one split. */
  private placeNextStart(line: StampedLine, run: ContainerRun): ContainerRun {
    const next = this.runs.after(run);
    if (next !== null) {
      this.runs.claim(next, line.ns);
      return next;
    }
    if (!this.startedWithin(line, run)) return run;
    return this.runs.splitSeen(run, line.ns, this.session.currentState()?.failure != null);
  }

  /** In a run no inspect saw, the engine's first line after a start that failed or ended opens another. */
  private startsUnseenRun(line: StampedLine, run: ContainerRun): boolean {
    if (!run.unseen || run !== this.current) return false;
    const state = this.session.currentState();
    return (
      state !== null &&
      (state.ended || state.failure !== null) &&
      beginsNewStart(line.text, state, this.options.engine ?? null)
    );
  }

  private inspectSoon(): void {
    if (this.inspecting !== null) return;
    const wait = Math.max(0, this.lastInspectAt + HELD_INSPECT_GAP_MS - Date.now());
    this.inspecting = (async () => {
      await pauseUnlessAborted(wait, this.options.signal);
      const arrived = this.seq;
      this.lastInspectAt = Date.now();
      const sighting = await this.inspect().catch(() => null);
      // Unanswered, the lines go where they seem to: held lines are never left behind.
      if (sighting === null || this.runs.learn(sighting) !== null) this.confirmed = arrived;
      this.inspecting = null;
      this.drain(sighting === null);
    })();
  }

  private deliver(line: StampedLine, found: ContainerRun): void {
    const run = this.startsUnseenRun(line, found)
      ? this.runs.splitUnseen(found, line.ns)
      : this.opensNextStart(line, found)
        ? this.placeNextStart(line, found)
        : found;
    if (this.current !== null && run !== this.current) this.endRun(this.current, run);
    this.current = run;
    this.last = {
      ns: line.ns,
      count: this.last?.ns === line.ns ? this.last.count + 1 : 1,
      coarse: line.coarse,
    };
    const { text } = line;
    this.session.push({ text, message: text, systemd: false, invocation: run.key, atMs: Date.now() });
  }

  /** The run is over: how inspect saw it end, or else a restart count that grew says it failed. */
  private endRun(run: ContainerRun, next: ContainerRun | null): void {
    if (this.ended.has(run.key)) return;
    this.ended.add(run.key);
    const failed = run.ended?.failed ?? (next !== null && next.restarts > run.restarts);
    const text = run.ended?.text ?? (next === null ? 'stopped' : `restarted (${next.restarts} restart(s))`);
    this.session.setRestarts(this.maxRestarts);
    this.session.end(text, failed, Date.now());
  }
}
