import { Temporal } from '@js-temporal/polyfill';
import { describe, expect, it } from 'vitest';

import { clearDatabase, setupTestDatabase } from '../helpers/test-db';

/**
 * Fedify's message queue and key-value store on our database (app/fediverse/*, decision 053),
 * on the embedded store: two queues (two instances) handle each message once; a failing
 * message is retried with backoff and dropped with a log line after the bounded time; a host
 * gets at most `hostConcurrency` deliveries at once; the KV store keeps values and their TTL.
 */
setupTestDatabase();

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await wait(20);
  }
}

async function makeQueue(overrides: Record<string, unknown> = {}) {
  const { MongoMessageQueue } = await import('../../app/fediverse/message-queue.server');
  const logs: { level: string; message: string; fields?: object }[] = [];
  const queue = new MongoMessageQueue({
    concurrency: 3,
    leaseMs: 5_000,
    pollMs: 50,
    retryMs: 50,
    maxAgeMs: 60_000,
    hostConcurrency: 2,
    allowPrivatePeers: true,
    log: (level, message, fields) => logs.push({ level, message, fields }),
    ...overrides,
  });
  return { queue, logs };
}

describe('the fediverse message queue', () => {
  it('hands each message to exactly one of two instances', async () => {
    await clearDatabase();
    const a = await makeQueue();
    const b = await makeQueue();
    const seen: number[] = [];
    const by = new Map<string, number>();
    const handler = (name: string) => async (message: unknown) => {
      seen.push((message as { n: number }).n);
      by.set(name, (by.get(name) ?? 0) + 1);
      await wait(5);
    };
    void a.queue.listen(handler('a'));
    void b.queue.listen(handler('b'));
    const N = 60;
    await a.queue.enqueueMany(Array.from({ length: N }, (_, n) => ({ type: 'test', n })));
    await until(() => seen.length >= N);
    await wait(300);
    await Promise.all([a.queue.stop(), b.queue.stop()]);
    expect(seen.sort((x, y) => x - y)).toEqual(Array.from({ length: N }, (_, n) => n));
    expect((by.get('a') ?? 0) + (by.get('b') ?? 0)).toBe(N);
    const { countJobs } = await import('../../app/models/fediverse-store.server');
    expect(await countJobs()).toBe(0);
  });

  it('waits for a delayed message', async () => {
    await clearDatabase();
    const { queue } = await makeQueue();
    const at: number[] = [];
    void queue.listen(() => {
      at.push(Date.now());
    });
    const sent = Date.now();
    await queue.enqueue({ type: 'test' }, { delay: Temporal.Duration.from({ milliseconds: 400 }) });
    await until(() => at.length === 1);
    await queue.stop();
    expect(at[0]! - sent).toBeGreaterThanOrEqual(350);
  });

  it('retries a throwing message with backoff, then drops it with a log line after the bounded time', async () => {
    await clearDatabase();
    const { queue, logs } = await makeQueue({ maxAgeMs: 600 });
    let calls = 0;
    void queue.listen(() => {
      calls++;
      throw new Error('the peer is down');
    });
    await queue.enqueue({
      type: 'outbox',
      inbox: 'https://peer.example/inbox',
      activityId: 'https://site.example/a/1',
      activityType: 'https://www.w3.org/ns/activitystreams#Accept',
      started: new Date().toISOString(),
      attempt: 0,
    });
    await until(() => logs.some((l) => l.message.includes('dropped')), 10_000);
    await queue.stop();
    expect(calls).toBeGreaterThanOrEqual(2);
    const line = logs.find((l) => l.message.includes('dropped'))!;
    expect(line.level).toBe('warn');
    expect(line.message).toContain('Accept https://site.example/a/1 to https://peer.example/inbox');
    const { countJobs } = await import('../../app/models/fediverse-store.server');
    expect(await countJobs()).toBe(0);
  });

  it('gives Fedify a retry delay that doubles, and none once past the bounded time', async () => {
    const { queue, logs } = await makeQueue({ retryMs: 1000, maxAgeMs: 3_600_000 });
    const delay = (elapsedMs: number, attempts: number) =>
      queue
        .deliveryRetryPolicy({
          elapsedTime: Temporal.Duration.from({ milliseconds: elapsedMs }),
          attempts,
        })
        ?.total({ unit: 'millisecond' }) ?? null;
    expect(delay(0, 0)).toBe(1000);
    expect(delay(0, 3)).toBe(8000);
    expect(delay(3_599_000, 3)).toBeNull();
    expect(logs.at(-1)?.message).toContain('dropped');
  });

  it('keeps at most hostConcurrency deliveries to one host in flight over two instances', async () => {
    await clearDatabase();
    const a = await makeQueue({ hostConcurrency: 2 });
    const b = await makeQueue({ hostConcurrency: 2 });
    let inFlight = 0;
    let most = 0;
    let done = 0;
    const handler = async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await wait(60);
      inFlight--;
      done++;
    };
    void a.queue.listen(handler);
    void b.queue.listen(handler);
    await a.queue.enqueueMany(
      Array.from({ length: 10 }, (_, n) => ({
        type: 'outbox',
        inbox: `http://127.0.0.1:9/inbox/${n}`,
        started: new Date().toISOString(),
        attempt: 0,
      })),
    );
    await until(() => done === 10, 20_000);
    await Promise.all([a.queue.stop(), b.queue.stop()]);
    expect(most).toBeLessThanOrEqual(2);
  });

  it('drops a delivery to a private address unless private peers are allowed', async () => {
    await clearDatabase();
    const { queue, logs } = await makeQueue({ allowPrivatePeers: false });
    let calls = 0;
    void queue.listen(() => {
      calls++;
    });
    await queue.enqueue({
      type: 'outbox',
      inbox: 'http://127.0.0.1:1/inbox',
      started: new Date().toISOString(),
      attempt: 0,
    });
    await until(() => logs.some((l) => l.message.includes('dropped')));
    await queue.stop();
    expect(calls).toBe(0);
  });
});

describe('the fediverse key-value store', () => {
  it('keeps JSON values under array keys, with a TTL', async () => {
    const { MongoKvStore } = await import('../../app/fediverse/kv-store.server');
    const kv = new MongoKvStore();
    const doc = { '@context': 'https://www.w3.org/ns/activitystreams', 'a.b': [1, { $x: 2 }] };
    await kv.set(['doc', 'https://peer.example/users/a'], doc);
    expect(await kv.get(['doc', 'https://peer.example/users/a'])).toEqual(doc);
    expect(await kv.get(['doc', 'https://peer.example/users/b'])).toBeUndefined();
    await kv.set(['short'], true, { ttl: Temporal.Duration.from({ milliseconds: 50 }) });
    expect(await kv.get(['short'])).toBe(true);
    await wait(80);
    expect(await kv.get(['short'])).toBeUndefined();
    await kv.delete(['doc', 'https://peer.example/users/a']);
    expect(await kv.get(['doc', 'https://peer.example/users/a'])).toBeUndefined();
  });
});
