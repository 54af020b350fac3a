import { afterEach, describe, expect, it, vi } from 'vitest';

import { versionRead } from '../../tests/helpers/data-version';
import { gate, harness, heldPage, pageResponse } from '../../tests/helpers/page-cache-harness';
import { setupTestDatabase } from '../../tests/helpers/test-db';

/**
 * The page cache's single-flight and freshness check at their edges (decision 043); the causes
 * of issue 37 are in page-cache-under-load.test.ts. Shared mode (an external store, polled).
 */

setupTestDatabase();

const cache = await import('./page-cache.server');
const version = await import('~/platform/data-version.server');
const { cachedRead } = await import('~/platform/read-cache.server');
const { MediaJob } = await import('~/models/media-job.server');
const { Show } = await import('~/models/show.server');

const settle = () => new Promise((resolve) => setImmediate(resolve));

afterEach(() => {
  vi.useRealTimers();
});

describe('page cache: single-flight', () => {
  it('waiters of a render whose answer is not kept render themselves, and later ones do not wait', async () => {
    await versionRead();
    const held = gate();
    const h = harness(cache, async () => {
      await held.wait;
      return new Response('<html>not found</html>', {
        status: 404,
        headers: { 'Content-Type': 'text/html', 'Cache-Control': 'no-store' },
      });
    });
    const first = [h.get('/missing'), h.get('/missing'), h.get('/missing')];
    await settle();
    expect(h.counts.renders).toBe(1);
    held.open();
    expect((await Promise.all(first)).map((a) => [a.status, a.rendered])).toEqual([
      [404, true],
      [404, true],
      [404, true],
    ]);
    // Known not to be kept: concurrent requests go straight to the routes.
    const before = cache.pageCacheStats().waits;
    await Promise.all([h.get('/missing'), h.get('/missing'), h.get('/missing')]);
    expect(cache.pageCacheStats().waits).toBe(before);
  });

  it("waiters go on when the leader's client goes away before its answer", async () => {
    await versionRead();
    const never = gate();
    let calls = 0;
    const h = harness(cache, async () => {
      calls += 1;
      if (calls === 1) await never.wait;
      return pageResponse('answered by a waiter');
    });
    const leader = h.request('/abandoned');
    await settle();
    const waiter = h.get('/abandoned');
    await settle();
    expect(h.counts.renders).toBe(1);
    leader.close();
    const answer = await waiter;
    expect(answer.body).toContain('answered by a waiter');
    never.open();
    await leader.answer;
  });

  it('a render that read a background collection (the media queue) is not kept', async () => {
    await versionRead();
    const h = harness(cache, async () => {
      const jobs = await MediaJob.find({}).lean();
      return pageResponse(`${jobs.length} jobs`);
    });
    expect((await h.get('/reads-the-queue')).rendered).toBe(true);
    expect((await h.get('/reads-the-queue')).rendered).toBe(true);
    expect(h.counts.renders).toBe(2);
  });
});

describe('page cache: stale-while-revalidate', () => {
  it('a page made long ago and made stale by a write is served to others while one request renders it', async () => {
    await versionRead();
    const h = heldPage(cache, 'made long ago');
    await h.get('/long-ago');
    // Five seconds on, the version read again (unchanged): the page is still good.
    const since = version.stamp()!.since;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(since + 5_000);
    expect((await h.get('/long-ago')).rendered).toBe(false);
    // A write: the page holds every write until this moment, so for STALE_MS it may be served
    // while one request renders it again.
    await Show.collection.insertOne({ title: `Stale-while-revalidate ${since}` });
    h.hold('after the write');
    const leader = h.get('/long-ago');
    await settle();
    const other = await h.get('/long-ago');
    expect([other.rendered, other.body.includes('made long ago')]).toEqual([false, true]);
    // Past the bound, nobody gets it any more (they wait for the render, or render).
    vi.setSystemTime(since + 5_000 + version.STALE_MS);
    const late = h.get('/long-ago');
    await settle();
    h.release();
    expect((await leader).body).toContain('after the write');
    expect((await late).body).toContain('after the write');
  });
});

describe('the version, checked on the request path', () => {
  it('requests that find the version late share one poll, which the first of them starts', async () => {
    await versionRead();
    const read = () => cachedRead(['shows', 'all-for-version-check'], () => Show.find({}).lean());
    await read();
    const before = version.pollStats();
    const since = version.stamp()!.since;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(since + version.FRESH_MS + 100);
    expect(version.versionTrusted()).toBe(false);
    await Promise.all(Array.from({ length: 20 }, read));
    const after = version.pollStats();
    // One poll for all of them, started by the first (the timer's polls are not counted here).
    expect(after.byRequests - before.byRequests).toBe(1);
    expect(version.versionTrusted()).toBe(true);
  });

  it('a request starts the next poll once the last is POLL_MS old, without waiting for it', async () => {
    await versionRead();
    // The start of the poll that read the trusted version.
    const since = version.stamp()!.since;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(since + version.POLL_MS + 50);
    // Trusted still (younger than FRESH_MS): nothing to wait for, and a poll is under way.
    expect(version.versionTrusted()).toBe(true);
    expect(version.versionCheck()).toBeNull();
    expect(version.pollStats().inFlight).toBe(true);
  });
});
