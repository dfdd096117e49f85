import {
  applyWatcherEvent,
  causeOf,
  emptyTargetMetrics,
  markDelivered,
  renderMetrics,
  undelivered,
  type Incident,
  type IncidentChange,
  type IncidentNotice,
  type IncidentState,
  type TargetMetrics,
  type WatcherMetrics,
} from '../incidents/index.js';
import { redactDiagnosis, redactText } from '../redaction/index.js';
import type { StartFailure, WatchEvent } from '../supervision/index.js';
import type { Diagnosis } from '../types/diagnosis.js';
import { DeliveryQueue } from './delivery-queue.js';
import type { IncidentStore } from './incident-store.js';
import type { Receiver } from './receivers.js';

export interface WatcherOptions {
  store: IncidentStore;
  state: IncidentState;
  receivers: readonly Receiver[];
  redact: boolean;
  /** The incident's HTML page for a failed start (the CLI renders it as `--report` does). */
  renderPage(failure: StartFailure, startedAtMs: number): string;
  /** The watcher's own log (stderr): warnings, what was sent, what failed. */
  log(text: string): void;
  queue?: { firstDelayMs?: number; maxDelayMs?: number; maxJobs?: number };
}

/**
 * The long watch's middle: each target's watch events in, incidents, their files, their notifications
 * and the metrics out. The incident logic is `applyWatcherEvent` (pure); this keeps its state, writes it
 * (in order, one write at a time) and hands notices to the delivery queue, which never blocks the watch.
 */
export class Watcher {
  private state: IncidentState;
  readonly metrics: WatcherMetrics = { targets: {}, notificationsFailed: {} };
  private readonly queue: DeliveryQueue;
  private writes: Promise<void> = Promise.resolve();
  private readonly diagnoses = new Map<string, Diagnosis>();
  private readonly phases = new Map<string, string>();
  private readonly refreshTimers: NodeJS.Timeout[] = [];

  constructor(private readonly options: WatcherOptions) {
    this.state = options.state;
    this.queue = new DeliveryQueue({
      ...options.queue,
      onDelivered: (job) => {
        this.options.log(`sent ${job.kind} of incident ${job.incidentId} to ${job.receiver}`);
        this.state = markDelivered(this.state, job.incidentId, job.receiver, job.kind);
        this.persist();
      },
      onFailed: (job, error, attempt, retryInMs) => {
        this.metrics.notificationsFailed[job.receiver] =
          (this.metrics.notificationsFailed[job.receiver] ?? 0) + 1;
        this.options.log(
          `warning: ${job.receiver} did not take incident ${job.incidentId} (attempt ${attempt}): ${redactText(describe(error))}; retrying in ${Math.round(retryInMs / 1000)}s`,
        );
      },
      onDropped: (job) =>
        this.options.log(
          `warning: too many notifications waiting: ${job.kind} of ${job.incidentId} to ${job.receiver} is kept in the state folder and sent when the watcher starts again`,
        ),
    });
  }

  /** Sends what the saved state shows no receiver acknowledged, and keeps Alertmanager's alerts alive. */
  async start(): Promise<void> {
    const names = this.options.receivers.map((receiver) => receiver.name);
    for (const due of undelivered(this.state, names)) {
      const receiver = this.options.receivers.find((each) => each.name === due.receiver);
      if (receiver === undefined) continue;
      const diagnosis = await this.loadDiagnosis(due.incident.id);
      this.notify(receiver, due.incident, due.kind, diagnosis);
    }
    for (const receiver of this.options.receivers) {
      if (receiver.refreshMs === null) continue;
      const timer = setInterval(() => this.refresh(receiver), receiver.refreshMs);
      timer.unref();
      this.refreshTimers.push(timer);
    }
  }

  incidents(): readonly Incident[] {
    return this.state.incidents;
  }

  renderMetrics(): string {
    return renderMetrics(this.metrics, this.state.incidents);
  }

  /** One watch event of one target. */
  onEvent(target: string, host: string, event: WatchEvent): void {
    const metrics = this.targetMetrics(target);
    switch (event.type) {
      case 'note':
        this.options.log(`${target}: ${event.text}`);
        break;
      case 'stalled':
        this.options.log(
          `${target}: warning: no progress in ${event.stall.phase?.label ?? 'its start'} for ${Math.round(event.stall.quietMs / 1000)}s`,
        );
        break;
      case 'started':
        metrics.starts += 1;
        metrics.state = 'starting';
        this.phases.delete(target);
        this.options.log(`${target}: start ${event.invocation.index} began`);
        break;
      case 'progress': {
        const phase = event.state.phase;
        if (phase !== null && this.phases.get(target) !== phase.id) {
          this.phases.set(target, phase.id);
          this.options.log(`${target}: ${phase.label} (${Math.round(event.elapsedMs / 1000)}s)`);
        }
        break;
      }
      case 'ready': {
        metrics.state = 'ready';
        metrics.timeToReadySeconds = event.elapsedMs / 1000;
        this.options.log(`${target}: ready after ${Math.round(event.elapsedMs / 1000)}s`);
        const key = startKey(event.invocation);
        this.apply({ type: 'ready', target, startKey: key, at: new Date() });
        break;
      }
      case 'stopped':
        metrics.state = 'stopped';
        this.options.log(
          `${target}: ${event.requested ? 'stopped as asked (no notification)' : 'exited cleanly'}`,
        );
        break;
      case 'failure': {
        metrics.state = 'failed';
        const cause = causeOf(event.failure.diagnosis);
        const key = `${cause.category}\u0000${cause.signature}`;
        metrics.failures[key] = (metrics.failures[key] ?? 0) + 1;
        metrics.lastFailureSeconds = Date.now() / 1000;
        this.apply(
          {
            type: 'failure',
            target,
            host,
            startKey: startKey(event.invocation),
            at: new Date(),
            // The incident's cause is kept in state.json: redacted there as in every report.
            diagnosis: this.options.redact
              ? redactDiagnosis(event.failure.diagnosis)
              : event.failure.diagnosis,
            serving: event.failure.ready,
          },
          event.failure,
        );
        break;
      }
    }
  }

  /** Stops refreshing, gives the queue a few seconds, and waits for the last write. */
  async close(graceMs = 3000): Promise<void> {
    for (const timer of this.refreshTimers) clearInterval(timer);
    await this.queue.close(graceMs);
    await this.writes;
  }

  private apply(event: Parameters<typeof applyWatcherEvent>[1], failure?: StartFailure): void {
    const before = this.state;
    const { state, changes } = applyWatcherEvent(before, event);
    this.state = state;
    // A start already counted changes nothing, and nothing is written for it.
    if (state !== before) this.persist();
    for (const change of changes) this.onChange(change, failure);
    this.forgetSettled();
  }

  /**
   * Only open incidents keep their diagnosis in memory (the refresh and the resolution send it): a crash
   * loop that recovers every time opens an incident per death, and a watch of weeks must not hold them all.
   * A settled one is read back from its file when a receiver still owes it (`start`).
   */
  private forgetSettled(): void {
    const open = new Set(
      this.state.incidents.filter((incident) => incident.status === 'open').map((incident) => incident.id),
    );
    for (const id of this.diagnoses.keys()) if (!open.has(id)) this.diagnoses.delete(id);
  }

  /** How many diagnoses are held in memory (the bound is the open incidents). */
  heldDiagnoses(): number {
    return this.diagnoses.size;
  }

  private onChange(change: IncidentChange, failure: StartFailure | undefined): void {
    const { incident } = change;
    const page = this.options.store.filesOf(incident.id).page;
    if (change.kind === 'repeated') {
      this.options.log(
        `${incident.target}: failed again with the same cause (${incident.count} times since ${incident.firstSeen}); incident ${incident.id} stays open`,
      );
      return;
    }
    if (change.kind === 'resolved') {
      this.options.log(`${incident.target}: incident ${incident.id} resolved (ready again)`);
      for (const receiver of this.options.receivers)
        this.notify(receiver, incident, 'resolved', this.diagnoses.get(incident.id) ?? null);
      return;
    }
    this.options.log(
      `${incident.target}: incident ${incident.id} opened: ${redactText(incident.cause)} (page: ${page})`,
    );
    if (failure !== undefined) {
      this.diagnoses.set(incident.id, failure.diagnosis);
      const files = this.incidentFiles(failure);
      // The files are written before any receiver is told the page's path.
      this.writes = this.writes
        .then(() => this.options.store.writeIncident(incident.id, files))
        .catch((error: unknown) =>
          this.options.log(`warning: could not write incident ${incident.id}: ${describe(error)}`),
        );
    }
    const written = this.writes;
    for (const receiver of this.options.receivers)
      this.notify(receiver, incident, 'firing', failure?.diagnosis ?? null, written);
  }

  private incidentFiles(failure: StartFailure): { diagnosis: string; page: string; excerpt: string } {
    const diagnosis = this.options.redact ? redactDiagnosis(failure.diagnosis) : failure.diagnosis;
    const lines = [
      ...failure.diagnosis.evidence.map((line) => `${line.lineNumber}: ${line.text}`),
      '--- last lines ---',
      ...failure.lastLines,
    ].join('\n');
    return {
      diagnosis: `${JSON.stringify(diagnosis, null, 2)}\n`,
      page: this.options.renderPage(failure, Date.now() - failure.ranMs),
      excerpt: `${this.options.redact ? redactText(lines) : lines}\n`,
    };
  }

  private notify(
    receiver: Receiver,
    incident: Incident,
    kind: 'firing' | 'resolved',
    diagnosis: Diagnosis | null,
    before: Promise<void> = Promise.resolve(),
  ): void {
    const notice: IncidentNotice = {
      kind,
      incident,
      diagnosis,
      pagePath: this.options.store.filesOf(incident.id).page,
      redact: this.options.redact,
    };
    if (!receiver.wants(notice)) {
      this.state = markDelivered(this.state, incident.id, receiver.name, kind);
      return;
    }
    // Queued now, so a resolution that follows at once still goes after it; sent once its files are written.
    this.queue.enqueue({
      receiver: receiver.name,
      incidentId: incident.id,
      kind,
      send: (signal) => before.then(() => receiver.send(notice, signal)),
    });
  }

  /** Open incidents sent again to a receiver that forgets an alert not repeated (Alertmanager). */
  private refresh(receiver: Receiver): void {
    for (const incident of this.state.incidents) {
      if (incident.status !== 'open' || incident.delivered[receiver.name]?.firing !== true) continue;
      const notice: IncidentNotice = {
        kind: 'firing',
        incident,
        diagnosis: this.diagnoses.get(incident.id) ?? null,
        pagePath: this.options.store.filesOf(incident.id).page,
        redact: this.options.redact,
      };
      this.queue.enqueue({
        receiver: receiver.name,
        incidentId: incident.id,
        kind: 'firing',
        send: (signal) => receiver.send(notice, signal),
      });
    }
  }

  private async loadDiagnosis(id: string): Promise<Diagnosis | null> {
    const cached = this.diagnoses.get(id);
    if (cached !== undefined) return cached;
    const text = await this.options.store.readDiagnosis(id);
    if (text === null) return null;
    try {
      const diagnosis = JSON.parse(text) as Diagnosis;
      this.diagnoses.set(id, diagnosis);
      return diagnosis;
    } catch {
      return null;
    }
  }

  private persist(): void {
    const snapshot = this.state;
    this.writes = this.writes
      .then(() => this.options.store.save(snapshot))
      .catch((error: unknown) => this.options.log(`warning: could not save the state: ${describe(error)}`));
  }

  private targetMetrics(target: string): TargetMetrics {
    const existing = this.metrics.targets[target];
    if (existing !== undefined) return existing;
    const made = emptyTargetMetrics();
    this.metrics.targets[target] = made;
    return made;
  }
}

/** A start's stable name: the invocation id where the target gives one, else its index and time. */
function startKey(invocation: { id: string | undefined; index: number; startedAtMs: number }): string {
  return invocation.id ?? `${invocation.index}@${Math.round(invocation.startedAtMs)}`;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
