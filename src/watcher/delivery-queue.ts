/** One notification to one receiver; `send` throws (or rejects) when the receiver did not take it. */
export interface DeliveryJob {
  receiver: string;
  incidentId: string;
  kind: 'firing' | 'resolved';
  /** `signal` aborts when the queue closes: a request still in flight then holds up no stop. */
  send(signal: AbortSignal): Promise<void>;
}

export interface DeliveryQueueOptions {
  /** Jobs waiting at most, all receivers together; past it the oldest is dropped (its incident is kept). */
  maxJobs?: number;
  /** The first retry's delay; each next one doubles, up to `maxDelayMs`. */
  firstDelayMs?: number;
  maxDelayMs?: number;
  onDelivered(job: DeliveryJob): void;
  onFailed(job: DeliveryJob, error: unknown, attempt: number, retryInMs: number): void;
  onDropped?(job: DeliveryJob): void;
}

/**
 * Notifications leave here, never in the watch's own path: each receiver has its own line of jobs, sent
 * in order (a resolution after its firing), retried with a doubling delay while the receiver is down or
 * answers an error. A job is dropped only past the bound, and then its incident stays in the state folder
 * unacknowledged, to be sent when the watcher starts again.
 */
export class DeliveryQueue {
  private readonly lines = new Map<string, DeliveryJob[]>();
  private readonly busy = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly wakers = new Set<() => void>();
  private closed = false;
  private readonly closing = new AbortController();

  constructor(private readonly options: DeliveryQueueOptions) {}

  enqueue(job: DeliveryJob): void {
    if (this.closed) return;
    const line = this.lines.get(job.receiver) ?? [];
    line.push(job);
    this.lines.set(job.receiver, line);
    this.bound();
    if (!this.busy.has(job.receiver)) void this.work(job.receiver);
  }

  pending(): number {
    let count = 0;
    for (const line of this.lines.values()) count += line.length;
    return count;
  }

  /** Waits up to `timeoutMs` for the jobs to go (SIGTERM), then stops retrying. */
  async close(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    // One last try now for what waits on a retry delay.
    for (const wake of this.wakers) wake();
    while (this.pending() > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    this.closed = true;
    this.closing.abort();
    for (const timer of this.timers) clearTimeout(timer);
    for (const wake of this.wakers) wake();
  }

  private bound(): void {
    const max = this.options.maxJobs ?? 1000;
    while (this.pending() > max) {
      const longest = [...this.lines.values()].sort((a, b) => b.length - a.length)[0];
      const dropped = longest?.splice(this.busy.size > 0 ? 1 : 0, 1)[0];
      if (dropped === undefined) return;
      this.options.onDropped?.(dropped);
    }
  }

  private async work(receiver: string): Promise<void> {
    this.busy.add(receiver);
    const line = this.lines.get(receiver) ?? [];
    let attempt = 0;
    while (line.length > 0 && !this.closed) {
      const job = line[0];
      if (job === undefined) break;
      try {
        await job.send(this.closing.signal);
        line.shift();
        attempt = 0;
        this.options.onDelivered(job);
      } catch (error) {
        // Cut off by the close: not the receiver's failure; the job stays unacknowledged in the state.
        if (this.closed) break;
        attempt += 1;
        const delay = Math.min(
          (this.options.firstDelayMs ?? 1000) * 2 ** (attempt - 1),
          this.options.maxDelayMs ?? 60_000,
        );
        this.options.onFailed(job, error, attempt, delay);
        await this.sleep(delay);
      }
    }
    this.busy.delete(receiver);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.timers.delete(timer);
        this.wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.timers.add(timer);
      this.wakers.add(wake);
    });
  }
}
