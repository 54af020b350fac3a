import fs from 'node:fs';

import { describe, expect, it } from 'vitest';

import { setupTestDatabase } from '../../tests/helpers/test-db';

/**
 * Which writes bump the data version (decision 043): an allow-list of content collections,
 * complete by test, and enforced on the read side (a read of anything else is never kept).
 */

setupTestDatabase();

const { BACKGROUND_COLLECTIONS, CONTENT_COLLECTIONS } =
  await import('./content-collections.server');
const { readCollections } = await import('./driver-commands.server');
const { countRoundTrips } = await import('./round-trips.server');
const { cachedRead, dataCacheStats } = await import('./read-cache.server');
const { pollStats, stamp, isFresh } = await import('./data-version.server');
const { default: mongoose } = await import('mongoose');
const { MediaJob } = await import('~/models/media-job.server');
const { Show } = await import('~/models/show.server');
const { GRIDFS_BUCKET } = await import('~/files/media-store.server');
const { RATE_LIMIT_COLLECTION } = await import('./rate-limit.server');
// Every model, so that every collection the app defines is known here.
const modelsDir = new URL('../models/', import.meta.url);
await Promise.all(
  fs
    .readdirSync(modelsDir)
    .filter((file) => file.endsWith('.server.ts'))
    .map((file) => import(new URL(file, modelsDir).href)),
);
await import('./seed.server');

describe('content collections', () => {
  it('sorts every collection the app writes into exactly one list (a new model must say which it is)', () => {
    const names = new Set([
      ...Object.values(mongoose.models).map((model) => model.collection.collectionName),
      `${GRIDFS_BUCKET}.files`,
      `${GRIDFS_BUCKET}.chunks`,
      RATE_LIMIT_COLLECTION,
      'data_versions',
    ]);
    const unsorted = [...names].filter(
      (name) => !CONTENT_COLLECTIONS.has(name) && !BACKGROUND_COLLECTIONS.has(name),
    );
    expect(unsorted).toEqual([]);
    const both = [...CONTENT_COLLECTIONS].filter((name) => BACKGROUND_COLLECTIONS.has(name));
    expect(both).toEqual([]);
    // The ones issue 37 names.
    for (const name of ['media_jobs', 'sessions', 'rate_limits', 'stats_daily', 'mail_deliveries'])
      expect(BACKGROUND_COLLECTIONS.has(name)).toBe(true);
    for (const name of ['tracks', 'track_peaks', 'blog_posts', 'shows', 'media.files'])
      expect(CONTENT_COLLECTIONS.has(name)).toBe(true);
  });

  it('names the collections a read command reads, pipelines included', () => {
    expect(readCollections('find', { find: 'tracks' })).toEqual(['tracks']);
    expect(readCollections('getMore', { getMore: 1, collection: 'media_jobs' })).toEqual([
      'media_jobs',
    ]);
    expect(
      readCollections('aggregate', {
        aggregate: 'tracks',
        pipeline: [
          { $match: {} },
          { $lookup: { from: 'track_peaks', as: 'p', pipeline: [{ $unionWith: 'sessions' }] } },
          { $unionWith: { coll: 'shows' } },
        ],
      }),
    ).toEqual(['tracks', 'track_peaks', 'sessions', 'shows']);
    expect(readCollections('insert', { insert: 'tracks' })).toEqual([]);
    expect(readCollections('aggregate', { aggregate: 1, pipeline: [] })).toEqual([]);
  });

  it('a request that reads a background collection is marked: its answer cannot be judged fresh', async () => {
    const quiet = countRoundTrips(async () => {
      await Show.find({}).lean();
    });
    await quiet.result;
    expect(quiet.scope.unversioned).toBe(false);
    const queue = countRoundTrips(async () => {
      await MediaJob.find({}).lean();
    });
    await queue.result;
    expect(queue.scope.unversioned).toBe(true);
  });

  it('the read cache never keeps a read of a background collection', async () => {
    const read = () => cachedRead(['media_jobs', 'all'], () => MediaJob.find({}).lean());
    const before = dataCacheStats();
    await read();
    await read();
    const after = dataCacheStats();
    expect(after.hits).toBe(before.hits);
    expect(after.entries).toBe(before.entries);
  });

  it('a background write bumps nothing; a content write bumps the local version', async () => {
    const made = stamp()!;
    const { local } = pollStats();
    await MediaJob.collection.insertOne({ trackId: 1, source: `/x-${Date.now()}` });
    expect(pollStats().local).toBe(local);
    await Show.collection.insertOne({ title: `Shown ${Date.now()}` });
    expect(pollStats().local).toBe(local + 1);
    expect(isFresh(made)).toBe(false);
  });
});
