import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { showInput, versionRead } from '../../tests/helpers/data-version';
import { gate, harness, heldPage, pageResponse } from '../../tests/helpers/page-cache-harness';
import { setupTestDatabase } from '../../tests/helpers/test-db';

/**
 * Issue 37, "a cache that degrades, never collapses": the causes, each shown on the page cache
 * and the data version as the server drives them (one instance on an external store: `shared`
 * mode, the version polled). Written against the interfaces decision 039 left, so that each
 * test fails on the code before decision 043:
 *
 * - 50 concurrent misses of one page rendered it 50 times (no single-flight);
 * - a poll of the version that started late (a busy event loop) turned the read cache off and
 *   made every page entry stale: more renders, later polls (the metastable collapse);
 * - the media worker's writes (its queue) emptied every cache of every instance;
 * - an entry made stale by a write was dropped, so every request rendered until one finished.
 *
 * No test here asserts on elapsed time: late polls are made by moving the clock (`Date`), and
 * renders are counted.
 */

setupTestDatabase();

const cache = await import('./page-cache.server');
const version = await import('~/platform/data-version.server');
const { dataCacheStats } = await import('~/platform/read-cache.server');
const { claimMediaJob, enqueueTrackAudioJob, MediaJob } = await import('~/models/media-job.server');
const { createShow, listShows } = await import('~/models/show.server');

/**
 * As if the event loop had been too busy to poll for `ms` since the trusted version's poll
 * started (a stamp's `since`): the clock moves, no timer runs.
 */
function loopBusyFor(ms: number): void {
  const since = version.stamp()!.since;
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(since + ms);
}

beforeAll(async () => {
  expect(version.freshnessMode()).toBe('shared');
  await versionRead();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the page cache under load (issue 37)', () => {
  it('50 concurrent misses of one page render it once; each visitor gets its own nonce', async () => {
    await versionRead();
    const held = gate();
    const h = harness(cache, async (path) => {
      await held.wait;
      return pageResponse(`the page ${path}`);
    });
    const answers = Array.from({ length: 50 }, () => h.get('/single-flight'));
    await new Promise((resolve) => setImmediate(resolve));
    held.open();
    const all = await Promise.all(answers);
    expect(h.counts.renders).toBe(1);
    expect(all.every((a) => a.status === 200 && a.body.includes('the page /single-flight'))).toBe(
      true,
    );
    const nonces = new Set(all.map((a) => /nonce="([^"]+)"/.exec(a.body)?.[1]));
    expect(nonces.size).toBe(50);
    // The waiters are counted as views of the page, as any hit is.
    expect(h.counts.views).toBe(49);
  });

  it('a version poll that starts late (a busy event loop) leaves pages served from memory', async () => {
    await versionRead();
    const h = harness(cache, async () => pageResponse('late poll'));
    expect((await h.get('/late-poll')).rendered).toBe(true);
    expect((await h.get('/late-poll')).rendered).toBe(false);
    loopBusyFor(version.FRESH_MS + 100);
    // Nothing was written: the page is still good. It must not be rendered again.
    const answer = await h.get('/late-poll');
    expect(answer.body).toContain('late poll');
    expect(answer.rendered).toBe(false);
    expect(h.counts.renders).toBe(1);
  });

  it('a version poll that starts late leaves the read cache on', async () => {
    await versionRead();
    await listShows();
    await listShows();
    const before = dataCacheStats().hits;
    loopBusyFor(version.FRESH_MS + 100);
    await listShows();
    expect(dataCacheStats().hits).toBe(before + 1);
  });

  it("the media worker's writes (queue, claim) are not content changes: pages stay cached", async () => {
    await versionRead();
    const h = harness(cache, async () => pageResponse('during media jobs'));
    await h.get('/media-jobs');
    const made = version.stamp()!;
    await enqueueTrackAudioJob(9_999, `/uploads/audio/job-${Date.now()}.mp3`, false);
    expect(await claimMediaJob('worker-under-load', 60_000)).not.toBeNull();
    expect(version.isFresh(made)).toBe(true);
    expect((await h.get('/media-jobs')).rendered).toBe(false);
    // A write to content still counts, at once.
    await createShow(showInput('A real change'));
    expect(version.isFresh(made)).toBe(false);
    await MediaJob.deleteMany({ trackId: 9_999 });
  });

  it('an entry made stale by a write is served to others, within the bound, while one request renders it', async () => {
    await versionRead();
    const h = heldPage(cache, 'before the write');
    await h.get('/stale-while-revalidate');
    await createShow(showInput('Makes every page stale'));
    h.hold('after the write');
    const leader = h.get('/stale-while-revalidate');
    await new Promise((resolve) => setImmediate(resolve));
    const others = await Promise.all([
      h.get('/stale-while-revalidate'),
      h.get('/stale-while-revalidate'),
    ]);
    expect(others.map((a) => [a.rendered, a.body.includes('before the write')])).toEqual([
      [false, true],
      [false, true],
    ]);
    h.release();
    expect((await leader).body).toContain('after the write');
    const next = await h.get('/stale-while-revalidate');
    expect([next.rendered, next.body.includes('after the write')]).toEqual([false, true]);
    expect(h.counts.renders).toBe(2);
  });
});
