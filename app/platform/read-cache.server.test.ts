import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { FULL_ACCESS } from '~/utils/access';

import { showInput } from '../../tests/helpers/data-version';

// env.server reads the environment once, at import: point it at a scratch folder first.
await vi.hoisted(async () => {
  await (await import('../../tests/helpers/scratch-env')).scratchEnv('data-cache-');
});

const { startEmbeddedMongo } = await import('@night-shore/embedded-mongo');
const { connectDb, disconnectDb, DB_NAME } = await import('./db.server');
const { cachedRead, dataCacheStats, enableDataCache, noteDataWrite, disableDataCache } =
  await import('./read-cache.server');
const { isFresh, stamp, startFreshness } = await import('./data-version.server');
const { wroteNothing } = await import('./driver-commands.server');
const { cachedFind } = await import('~/models/model-helpers.server');
const { Show, createShow, listShows, updateShow, getShow, deleteShow } =
  await import('~/models/show.server');
const { getFeaturedTrack, listTracks } = await import('~/models/track.server');
const { createTrack, updateTrack } = await import('~/models/track-writes.server');
const { BlogPost, createBlogPost, getBlogPostWithNeighbours, listBlogPosts } =
  await import('~/models/blog-post.server');
const { siteWeekNumber } = await import('~/utils/time');
const { getTheme, saveTheme } = await import('~/models/theme.server');

let stop: () => Promise<void>;
let uri: string;

beforeAll(async () => {
  const store = await startEmbeddedMongo({ onWrite: noteDataWrite });
  stop = store.stop;
  uri = store.uri;
  await connectDb({ uri });
  // This process started the store and hears every write (onWrite), as db.server does when it
  // starts the store itself: what it remembers needs no shared version.
  startFreshness('owned');
  enableDataCache();
});

afterAll(async () => {
  disableDataCache();
  await disconnectDb();
  await stop();
});

describe('data cache', () => {
  it('a write command that changed nothing keeps what is remembered (a queue poll that claims nothing)', async () => {
    await createShow(showInput('Kept through empty writes'));
    await listShows();
    const made = stamp()!;
    const before = dataCacheStats();
    // As the media worker's claim does every second when its queue is empty.
    await Show.findOneAndUpdate({ title: 'no such show' }, { $set: { venue: 'x' } });
    await Show.updateOne({ title: 'no such show' }, { $set: { venue: 'x' } });
    await Show.deleteMany({ title: 'no such show' });
    expect(isFresh(made)).toBe(true);
    await listShows();
    expect(dataCacheStats().hits).toBe(before.hits + 1);
    // A write that changed a document still counts.
    await Show.updateOne({ title: 'Kept through empty writes' }, { $set: { venue: 'Elsewhere' } });
    expect(isFresh(made)).toBe(false);
  });

  it("reads a write command's reply for whether it changed anything", () => {
    expect(wroteNothing('findAndModify', { lastErrorObject: { n: 0 }, value: null, ok: 1 })).toBe(
      true,
    );
    expect(wroteNothing('findAndModify', { lastErrorObject: { n: 1 }, ok: 1 })).toBe(false);
    expect(wroteNothing('findAndModify', { lastErrorObject: { n: 0, upserted: 'x' }, ok: 1 })).toBe(
      false,
    );
    expect(wroteNothing('update', { n: 1, nModified: 0, ok: 1 })).toBe(true);
    expect(wroteNothing('update', { n: 0, nModified: 0, upserted: [{ _id: 1 }], ok: 1 })).toBe(
      false,
    );
    expect(wroteNothing('update', { n: 1, ok: 1 })).toBe(false);
    expect(wroteNothing('insert', { n: 0, ok: 1 })).toBe(true);
    expect(wroteNothing('delete', { n: 2, ok: 1 })).toBe(false);
    expect(wroteNothing('create', { ok: 1 })).toBe(false);
    expect(wroteNothing('update', undefined)).toBe(false);
  });

  it('serves repeated reads from memory', async () => {
    await createShow(showInput('Cached show'));
    await listShows();
    const before = dataCacheStats();
    const again = await listShows();
    const after = dataCacheStats();
    expect(after.hits).toBe(before.hits + 1);
    expect(again.map((s) => s.title)).toContain('Cached show');
  });

  it('an admin change through the models shows at once', async () => {
    const created = await createShow(showInput('Before edit'));
    expect((await listShows()).map((s) => s.title)).toContain('Before edit');
    expect((await getShow(created.id))?.title).toBe('Before edit');
    await updateShow(created.id, showInput('After edit'));
    expect((await listShows()).map((s) => s.title)).toContain('After edit');
    expect((await listShows()).map((s) => s.title)).not.toContain('Before edit');
    expect((await getShow(created.id))?.title).toBe('After edit');
    await deleteShow(created.id);
    expect(await getShow(created.id)).toBeNull();

    await getTheme();
    await saveTheme({ heroTitle: 'A brand new hero' });
    expect((await getTheme()).heroTitle).toBe('A brand new hero');
  });

  it('a write from another client (a script, another process) invalidates too', async () => {
    const created = await createShow(showInput('Scripted'));
    expect((await getShow(created.id))?.venue).toBe('Wavelength');
    const other = new MongoClient(uri);
    try {
      await other.connect();
      await other
        .db(DB_NAME)
        .collection('shows')
        .updateOne({ id: created.id }, { $set: { venue: 'The Stone Pony' } });
    } finally {
      await other.close();
    }
    expect((await getShow(created.id))?.venue).toBe('The Stone Pony');
  });

  it('keys on the filter (search terms are regular expressions) and options', async () => {
    await createTrack({
      title: 'Neon Boardwalk',
      artist: 'Night Shore',
      album: null,
      type: 'Single',
      duration: '3:00',
      coverImage: '/c.jpg',
      audioFile: '/uploads/audio/n.mp3',
      featured: false,
    });
    await createTrack({
      title: 'Low Tide',
      artist: 'Night Shore',
      album: null,
      type: 'Single',
      duration: '3:00',
      coverImage: '/c.jpg',
      audioFile: '/uploads/audio/l.mp3',
      featured: false,
    });
    expect((await listTracks({ q: 'neon' })).map((t) => t.title)).toEqual(['Neon Boardwalk']);
    expect((await listTracks({ q: 'tide' })).map((t) => t.title)).toEqual(['Low Tide']);
    expect(await listTracks({ limit: 1 })).toHaveLength(1);
    expect((await listTracks()).length).toBeGreaterThanOrEqual(2);
    const [first] = await listTracks({ q: 'neon' });
    await updateTrack(first!.id, { title: 'Neon Boardwalk (Edit)' });
    expect((await listTracks({ q: 'neon' })).map((t) => t.title)).toEqual([
      'Neon Boardwalk (Edit)',
    ]);
  });

  it('hands out copies: mutating a result does not change the next one', async () => {
    const spec = { sort: { id: 1 } } as const;
    const a = await cachedFind(Show, spec); // a miss: the cache keeps its own copy
    const title = a[0]!.title;
    a[0]!.title = 'mutated on a miss';
    const hits = dataCacheStats().hits;
    const b = await cachedFind(Show, spec);
    expect(dataCacheStats().hits).toBe(hits + 1);
    expect(b[0]!.title).toBe(title);
    b[0]!.title = 'mutated on a hit';
    b.length = 0;
    const c = await cachedFind(Show, spec);
    expect(dataCacheStats().hits).toBe(hits + 2);
    expect(c.length).toBe(a.length);
    expect(c[0]!.title).toBe(title);
  });

  it('two reads that differ only by projection never share an entry', async () => {
    await createBlogPost({
      title: 'Projection post',
      slug: 'projection-post',
      content: 'The whole body',
      excerpt: 'Excerpt',
      imageUrl: '/placeholder-album.jpg',
      category: 'NEWS',
    });
    // The neighbours read asks for slug and title only; the list asks for every field.
    const before = dataCacheStats().entries;
    await getBlogPostWithNeighbours(FULL_ACCESS, 'projection-post');
    const posts = await listBlogPosts();
    expect(dataCacheStats().entries).toBeGreaterThanOrEqual(before + 2);
    expect(posts.find((p) => p.slug === 'projection-post')?.content).toBe('The whole body');
    // And the other way round, from a fresh cache.
    noteDataWrite(['blog_posts']);
    await listBlogPosts();
    const found = await getBlogPostWithNeighbours(FULL_ACCESS, 'projection-post');
    expect(found?.post.locked === false && found.post.content).toBe('The whole body');
    expect(Object.keys(found?.previous ?? found?.next ?? { slug: '', title: '' }).sort()).toEqual([
      'slug',
      'title',
    ]);
    const fields = await cachedFind(BlogPost, { sort: { id: 1 }, fields: ['slug'] });
    const full = await cachedFind(BlogPost, { sort: { id: 1 } });
    expect(fields[0]).not.toHaveProperty('content');
    expect(full[0]).toHaveProperty('content');
  });

  it('two reads that differ only by sort never share an entry', async () => {
    for (const title of ['Sort A', 'Sort B', 'Sort C']) {
      await createTrack({
        title,
        artist: 'Night Shore',
        album: null,
        type: 'Single',
        duration: '3:00',
        coverImage: '/c.jpg',
        audioFile: `/uploads/audio/${title}.mp3`,
        featured: false,
      });
      await new Promise((r) => setTimeout(r, 5)); // distinct createdAt
    }
    // listTracks: newest first; the weekly rotation: by id, oldest first.
    const newestFirst = await listTracks();
    const byId = [...newestFirst].sort((a, b) => a.id - b.id);
    expect(byId.map((t) => t.id)).not.toEqual(newestFirst.map((t) => t.id));
    await saveTheme({ weeklyRotation: true });
    try {
      for (let week = 0; week < byId.length; week += 1) {
        const now = new Date(Date.UTC(2030, 0, 7 + 7 * week, 17));
        const index = siteWeekNumber(now) % byId.length;
        expect((await getFeaturedTrack(now))?.id).toBe(byId[index]!.id);
      }
    } finally {
      await saveTheme({ weeklyRotation: false });
    }
    const ascending = await cachedFind(Show, { sort: { id: 1 } });
    const descending = await cachedFind(Show, { sort: { id: -1 } });
    expect(descending.map((s) => s.id)).toEqual(ascending.map((s) => s.id).reverse());
  });

  it('a write to one collection leaves the others cached; an unknown write clears all', async () => {
    await listShows();
    await listTracks();
    let hits = dataCacheStats().hits;
    noteDataWrite(['tracks']);
    await listShows();
    expect(dataCacheStats().hits).toBe(hits + 1);
    await listTracks();
    expect(dataCacheStats().hits).toBe(hits + 1);
    noteDataWrite(['sessions', 'rate_limits']); // per-visitor state: nothing a page shows
    await listTracks();
    expect(dataCacheStats().hits).toBe(hits + 2);
    noteDataWrite([]);
    hits = dataCacheStats().hits;
    await listShows();
    await listTracks();
    expect(dataCacheStats().hits).toBe(hits);
  });

  it('does not store a read that overlaps a write to its collection', async () => {
    let reads = 0;
    const read = async () => {
      reads += 1;
      if (reads === 1) noteDataWrite(['shows']); // a write lands while we read
      return { reads };
    };
    expect(await cachedRead(['shows', 'overlap'], read)).toEqual({ reads: 1 });
    expect(await cachedRead(['shows', 'overlap'], read)).toEqual({ reads: 2 });
    expect(await cachedRead(['shows', 'overlap'], read)).toEqual({ reads: 2 });
    expect(reads).toBe(2);
  });

  it('remembers reads of content collections only (decision 043)', async () => {
    let reads = 0;
    const read = async () => ++reads;
    await cachedRead(['media_jobs', 'queue'], read);
    await cachedRead(['media_jobs', 'queue'], read);
    expect(reads).toBe(2);
  });

  it('keeps a bounded number of entries, and is a plain pass-through when off', async () => {
    for (let i = 0; i < 600; i += 1) await cachedRead(['shows', 'bounded', i], async () => i);
    expect(dataCacheStats().entries).toBeGreaterThan(400);
    expect(dataCacheStats().entries).toBeLessThanOrEqual(500);
    disableDataCache();
    try {
      let reads = 0;
      const read = async () => ++reads;
      await cachedRead(['off', 1], read);
      await cachedRead(['off', 1], read);
      expect(reads).toBe(2);
      expect(dataCacheStats().entries).toBe(0);
    } finally {
      enableDataCache();
    }
  });
});
