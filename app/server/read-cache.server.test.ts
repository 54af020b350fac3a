import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// env.server reads the environment once, at import: point it at a scratch folder first.
await vi.hoisted(async () => {
  const nodeFs = await import('node:fs');
  const nodeOs = await import('node:os');
  const nodePath = await import('node:path');
  const base = nodeFs.mkdtempSync(nodePath.join(nodeOs.tmpdir(), 'data-cache-'));
  process.env.DATA_DIR = nodePath.join(base, 'data');
  process.env.UPLOADS_DIR = nodePath.join(base, 'uploads');
  process.env.SESSION_SECRET = 'test-secret-test-secret';
  delete (globalThis as { __nightShoreEnv?: unknown }).__nightShoreEnv;
});

const { startEmbeddedMongo } = await import('@night-shore/embedded-mongo');
const { connectDb, disconnectDb, DB_NAME } = await import('./db.server');
const { dataCacheStats, enableDataCache, noteDataWrite, disableDataCache } =
  await import('./read-cache.server');
const { Show, createShow, listShows, updateShow, getShow, deleteShow } =
  await import('~/models/show.server');
const { createTrack, listTracks, updateTrack } = await import('~/models/track.server');
const { getTheme, saveTheme } = await import('~/models/theme.server');

let stop: () => Promise<void>;
let uri: string;

beforeAll(async () => {
  const store = await startEmbeddedMongo({ onWrite: noteDataWrite });
  stop = store.stop;
  uri = store.uri;
  await connectDb({ uri });
  enableDataCache();
});

afterAll(async () => {
  disableDataCache();
  await disconnectDb();
  await stop();
});

const show = (title: string) => ({
  title,
  venue: 'Wavelength',
  location: 'Asbury Park, NJ',
  date: '2030-07-04',
  time: '8:00 PM',
});

describe('data cache', () => {
  it('serves repeated reads from memory', async () => {
    await createShow(show('Cached show'));
    await listShows();
    const before = dataCacheStats();
    const again = await listShows();
    const after = dataCacheStats();
    expect(after.hits).toBe(before.hits + 1);
    expect(again.map((s) => s.title)).toContain('Cached show');
  });

  it('an admin change through the models shows at once', async () => {
    const created = await createShow(show('Before edit'));
    expect((await listShows()).map((s) => s.title)).toContain('Before edit');
    expect((await getShow(created.id))?.title).toBe('Before edit');
    await updateShow(created.id, show('After edit'));
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
    const created = await createShow(show('Scripted'));
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
    const a = await Show.find({}).sort({ id: 1 }).lean();
    const hits = dataCacheStats().hits;
    const b = await Show.find({}).sort({ id: 1 }).lean();
    expect(dataCacheStats().hits).toBe(hits + 1);
    const title = b[0]!.title;
    b[0]!.title = 'mutated';
    b.length = 0;
    const c = await Show.find({}).sort({ id: 1 }).lean();
    expect(c.length).toBe(a.length);
    expect(c[0]!.title).toBe(title);
  });
});
