import { describe, expect, it } from 'vitest';

import { DurableQueue, MAX_BACKOFF_MS, retryAt } from './durable-queue.server';

/**
 * The runner on an in-memory queue (the mail and media queues are tested on the store in
 * tests/integration/mail-delivery.test.ts and media-jobs.test.ts): `concurrency` loops, a
 * kick wakes an idle loop at once, a throwing claim is reported and polled again, `stop()`
 * waits for the jobs in flight, and the lease is renewed until it is lost.
 */
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function memoryQueue(options: { concurrency: number; jobMs: number }) {
  const due: number[] = [];
  const done: number[] = [];
  const errors: unknown[] = [];
  let inFlight = 0;
  let most = 0;
  let failClaims = 0;
  const queue = new DurableQueue<number>({
    concurrency: options.concurrency,
    leaseMs: 300,
    pollMs: 10_000, // longer than any test: only a kick (or a job) wakes a loop
    claim: async () => {
      if (failClaims > 0) {
        failClaims--;
        throw new Error('the store is away');
      }
      return due.shift() ?? null;
    },
    handle: async (job) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await wait(options.jobMs);
      inFlight--;
      done.push(job);
    },
    onError: (error) => errors.push(error),
  });
  return {
    queue,
    due,
    done,
    errors,
    most: () => most,
    failNextClaims: (n: number) => (failClaims = n),
  };
}

describe('the durable-queue runner', () => {
  it('runs `concurrency` jobs at a time, wakes on a kick and drains on stop', async () => {
    const q = memoryQueue({ concurrency: 2, jobMs: 60 });
    q.queue.start();
    await wait(20); // both loops found nothing and sleep
    q.due.push(1, 2, 3, 4, 5);
    q.queue.kick();
    await wait(30);
    const stopping = q.queue.stop(); // two jobs are in flight: they finish
    expect(q.queue.running).toBe(false);
    await stopping;
    expect(q.done).toEqual([1, 2]);
    expect(q.most()).toBe(2);
    expect(q.due).toEqual([3, 4, 5]);
  });

  it('reports a claim that throws and tries again after the poll (or a kick)', async () => {
    const q = memoryQueue({ concurrency: 1, jobMs: 1 });
    q.failNextClaims(1);
    q.due.push(7);
    q.queue.start();
    await wait(20);
    expect(q.errors).toHaveLength(1);
    expect(q.done).toEqual([]);
    q.queue.kick();
    await wait(20);
    expect(q.done).toEqual([7]);
    await q.queue.stop();
  });

  it('renews the lease while the work runs and ends the work when the lease is lost', async () => {
    const { queue } = memoryQueue({ concurrency: 1, jobMs: 1 });
    const renewals: string[] = [];
    let lost = 0;
    const result = await queue.whileLeased(
      wait(600).then(() => 'done'),
      async (workerId) => {
        renewals.push(workerId);
        return renewals.length < 2;
      },
      () => lost++,
    );
    expect(result).toBe('done');
    expect(renewals.length).toBeGreaterThanOrEqual(2); // every 250 ms (a third of 300, at least 250)
    expect(new Set(renewals)).toEqual(new Set([queue.id]));
    expect(lost).toBeGreaterThanOrEqual(1);
  });

  it('backs off exponentially from retryMs, at most an hour', () => {
    const now = 1_000_000;
    expect(retryAt(1000, 1, now).getTime() - now).toBe(1000);
    expect(retryAt(1000, 2, now).getTime() - now).toBe(2000);
    expect(retryAt(1000, 4, now).getTime() - now).toBe(8000);
    expect(retryAt(1000, 40, now).getTime() - now).toBe(MAX_BACKOFF_MS);
  });
});
