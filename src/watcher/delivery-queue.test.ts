import { describe, expect, it } from 'vitest';
import { DeliveryQueue, type DeliveryJob } from './delivery-queue.js';

function job(receiver: string, incidentId: string, send: () => Promise<void>): DeliveryJob {
  return { receiver, incidentId, kind: 'firing', send };
}

describe('DeliveryQueue', () => {
  it('sends each receiver’s jobs in order, retrying a failing one with a doubling delay', async () => {
    const sent: string[] = [];
    const failures: number[] = [];
    let refusals = 3;
    const queue = new DeliveryQueue({
      firstDelayMs: 10,
      maxDelayMs: 1000,
      onDelivered: (done) => sent.push(`${done.receiver}:${done.incidentId}`),
      onFailed: (_job, _error, _attempt, retryInMs) => failures.push(retryInMs),
    });
    queue.enqueue(
      job('down-at-first', 'a', () =>
        refusals-- > 0 ? Promise.reject(new Error('answered 500')) : Promise.resolve(),
      ),
    );
    queue.enqueue(job('down-at-first', 'b', () => Promise.resolve()));
    queue.enqueue(job('up', 'c', () => Promise.resolve()));
    await queue.close(2000);
    expect(failures).toEqual([10, 20, 40]);
    // The healthy receiver did not wait for the one that was down; the one down kept its order.
    expect(sent).toEqual(['up:c', 'down-at-first:a', 'down-at-first:b']);
  });

  it('drops the oldest waiting job past its bound, and says so', async () => {
    const dropped: string[] = [];
    let release = (): void => undefined;
    const queue = new DeliveryQueue({
      maxJobs: 2,
      onDelivered: () => undefined,
      onFailed: () => undefined,
      onDropped: (gone) => dropped.push(gone.incidentId),
    });
    const blocked = new Promise<void>((resolve) => (release = resolve));
    queue.enqueue(job('r', 'in-flight', () => blocked));
    queue.enqueue(job('r', 'second', () => Promise.resolve()));
    queue.enqueue(job('r', 'third', () => Promise.resolve()));
    expect(dropped).toEqual(['second']);
    release();
    await queue.close(1000);
    expect(queue.pending()).toBe(0);
  });
});
