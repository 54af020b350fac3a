import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { setupTestDatabase } from '../../tests/helpers/test-db';

/** Both media stores, the same behaviour (decision 023), on the embedded store. */
const { uploadsDir } = setupTestDatabase();
const { ChunkCache, diskMediaStore, gridfsMediaStore, mediaKeyFromUrl, isMediaKey } =
  await import('./media-store.server');
const { default: mongoose } = await import('mongoose');

async function read(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function localFile(bytes: Buffer): string {
  const file = path.join(uploadsDir, 'audio', `.staging-${crypto.randomBytes(4).toString('hex')}`);
  fs.writeFileSync(file, bytes);
  return file;
}

const stores = {
  disk: () => diskMediaStore(uploadsDir),
  gridfs: () => gridfsMediaStore(),
  'gridfs with a chunk cache': () => gridfsMediaStore(undefined, new ChunkCache(1024 * 1024)),
};

describe.each(Object.entries(stores))('%s store', (kind, make) => {
  // 600 KB: more than two GridFS chunks of 255 KiB.
  const bytes = crypto.randomBytes(600 * 1024);

  it('stores a file, states it, reads it whole and by byte range across chunks', async () => {
    const store = make();
    const key = `audio/${kind}-a.mp3`;
    expect(await store.stat(key)).toBeNull();
    await store.put(key, localFile(bytes));
    const stat = await store.stat(key);
    expect(stat?.size).toBe(bytes.length);
    expect(stat?.mtimeMs).toBeGreaterThan(Date.now() - 60_000);
    expect((await read(await store.open(key))).equals(bytes)).toBe(true);
    for (const [start, end] of [
      [0, 0],
      [100, 999],
      [261_000, 262_200], // across the first chunk boundary (261,120)
      [bytes.length - 10, bytes.length - 1],
    ] as const) {
      const part = await read(await store.open(key, { start, end }));
      expect(part.equals(bytes.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
    }
    // Opened for serving (one read per opening): one exact chunk, the whole file, a middle.
    for (const [start, end] of [
      [261_120, 522_239],
      [0, bytes.length - 1],
      [522_000, 522_500],
    ] as const) {
      const opened = await store.openFile(key);
      expect(opened?.stat.size).toBe(bytes.length);
      const part = await read(opened!.read({ start, end }));
      expect(part.equals(bytes.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
    }
  });

  if (kind.startsWith('gridfs')) {
    it('a file with a chunk missing fails its read instead of sending wrong bytes', async () => {
      const store = make();
      const key = `audio/${kind}-holed.mp3`;
      await store.put(key, localFile(bytes));
      const db = mongoose.connection.db!;
      const file = await db.collection('media.files').findOne({ filename: key });
      await db.collection('media.chunks').deleteOne({ files_id: file!._id, n: 1 });
      await expect(read(await store.open(key))).rejects.toThrow(/chunk 1 is missing/);
      await expect(read(await store.open(key, { start: 0, end: 100 }))).resolves.toHaveLength(101);
    });
  }

  it('lists by prefix and deletes a file with all of it', async () => {
    const store = make();
    const base = `images/${kind}-cover`;
    for (const key of [
      `${base}.jpg`,
      `${base}-320w.webp`,
      `${base}-640w.jpg`,
      `images/${kind}-other.jpg`,
    ])
      await store.put(key, localFile(bytes.subarray(0, 1000)));
    expect(await store.list(`${base}-`)).toEqual([`${base}-320w.webp`, `${base}-640w.jpg`]);
    await store.delete(`${base}-320w.webp`);
    await store.delete(`${base}-320w.webp`); // twice is fine
    expect(await store.list(`${base}-`)).toEqual([`${base}-640w.jpg`]);
    expect(await store.stat(`${base}-320w.webp`)).toBeNull();
    expect((await store.all()).map((f) => f.key)).toContain(`${base}.jpg`);
    if (kind.startsWith('gridfs')) {
      // No chunk outlives its file.
      const db = mongoose.connection.db!;
      const ids = (await db.collection('media.files').find().toArray()).map((f) => String(f._id));
      const orphans = await db
        .collection('media.chunks')
        .find({}, { projection: { files_id: 1 } })
        .toArray();
      expect(orphans.filter((c) => !ids.includes(String(c.files_id)))).toEqual([]);
    }
  });

  it('refuses keys that are not media keys', async () => {
    const store = make();
    expect(await store.stat('../secret')).toBeNull();
    expect(await store.stat('audio/.hidden')).toBeNull();
    await expect(store.put('elsewhere/x.mp3', localFile(bytes))).rejects.toThrow();
  });
});

describe('media keys', () => {
  it('are the URL after /uploads/, decoded once, in audio/ or images/', () => {
    expect(mediaKeyFromUrl('/uploads/audio/a.mp3')).toBe('audio/a.mp3');
    expect(mediaKeyFromUrl('/uploads/%61udio/a.mp3')).toBe('audio/a.mp3');
    expect(mediaKeyFromUrl('/uploads/audio/a.mp3?v=1')).toBe('audio/a.mp3');
    expect(mediaKeyFromUrl('/uploads/audio/%2e%2e')).toBeNull();
    expect(mediaKeyFromUrl('/uploads/other/a.mp3')).toBeNull();
    expect(mediaKeyFromUrl('https://example.com/uploads/audio/a.mp3')).toBeNull();
    expect(isMediaKey('images/a-640w.webp')).toBe(true);
    expect(isMediaKey('images/sub/a.jpg')).toBe(false);
  });
});

describe('GridFS chunk cache', () => {
  it('serves chunks it has read without the database, and forgets the least recent first', async () => {
    const cache = new ChunkCache(600 * 1024);
    const store = gridfsMediaStore(undefined, cache);
    const bytes = crypto.randomBytes(600 * 1024);
    const key = 'audio/cached.mp3';
    await store.put(key, localFile(bytes));
    const range = { start: 1000, end: 300_000 }; // chunks 0 and 1
    expect((await read(await store.open(key, range))).equals(bytes.subarray(1000, 300_001))).toBe(
      true,
    );
    expect(cache.size).toEqual({ entries: 2, bytes: 2 * 255 * 1024 });
    // The chunks gone from the database: the cached ones still answer the same range.
    const db = mongoose.connection.db!;
    const file = await db.collection('media.files').findOne({ filename: key });
    await db.collection('media.chunks').deleteMany({ files_id: file!._id });
    expect((await read(await store.open(key, range))).equals(bytes.subarray(1000, 300_001))).toBe(
      true,
    );
    // Over the bound: the least recently used goes.
    cache.set('other:0', Buffer.alloc(200 * 1024));
    expect(cache.size.entries).toBe(2);
    expect(cache.get(`${String(file!._id)}:0`)).toBeUndefined();
  });
});
