// collMod through the `mongodb` driver: TTL changes and hidden indexes as MongoDB 7.0 answers
// them; validators, views and the other collection options refused clearly.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { type Db, MongoClient, type MongoServerError } from 'mongodb';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';

import { startEmbeddedMongo } from './index';
import { codeOf, storeForEachTest } from './test-support/driver-store';

const root = mkdtempSync(join(tmpdir(), 'embedded-mongo-collmod-'));
const store = storeForEachTest('collmod');
let db: Db;
beforeEach(async () => {
  db = store.db;
  await db.collection('s').createIndex({ at: 1 }, { expireAfterSeconds: 3600, name: 'at_ttl' });
  await db.collection('s').createIndex({ user: 1, at: -1 });
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

const ttlOf = async (name: string) =>
  (await db.collection('s').listIndexes().toArray()).find((i) => i.name === name)
    ?.expireAfterSeconds as number | undefined;

describe('collMod', () => {
  it('changes a TTL by key pattern or by name, answering the old and new values', async () => {
    const reply = await db.command({
      collMod: 's',
      index: { keyPattern: { at: 1 }, expireAfterSeconds: 60 },
    });
    expect(reply).toMatchObject({
      expireAfterSeconds_old: 3600,
      expireAfterSeconds_new: 60,
      ok: 1,
    });
    expect(await ttlOf('at_ttl')).toBe(60);
    await db.command({ collMod: 's', index: { name: 'at_ttl', expireAfterSeconds: 120 } });
    expect(await ttlOf('at_ttl')).toBe(120);
    // The same value again changes nothing.
    const same = await db.command({
      collMod: 's',
      index: { name: 'at_ttl', expireAfterSeconds: 120 },
    });
    expect(same.expireAfterSeconds_old).toBeUndefined();
  });

  it('makes a single-field index a TTL index (MongoDB 5.1+), not a compound one', async () => {
    await db.collection('s').createIndex({ seen: 1 });
    const reply = await db.command({
      collMod: 's',
      index: { keyPattern: { seen: 1 }, expireAfterSeconds: 10 },
    });
    expect(reply).toMatchObject({ expireAfterSeconds_new: 10, ok: 1 });
    expect(await ttlOf('seen_1')).toBe(10);
    expect(
      await codeOf(
        db.command({ collMod: 's', index: { name: 'user_1_at_-1', expireAfterSeconds: 10 } }),
      ),
    ).toBe(72);
  });

  it('hides and unhides an index', async () => {
    const reply = await db.command({ collMod: 's', index: { name: 'user_1_at_-1', hidden: true } });
    expect(reply).toMatchObject({ hidden_old: false, hidden_new: true });
    const ix = (await db.collection('s').listIndexes().toArray()).find(
      (i) => i.name === 'user_1_at_-1',
    );
    expect(ix?.hidden).toBe(true);
    await db.command({ collMod: 's', index: { name: 'user_1_at_-1', hidden: false } });
  });

  it('a hidden index serves no query but is maintained and still enforces uniqueness', async () => {
    const c = db.collection<{ _id: number; k: number; g?: number }>('h');
    await c.createIndex({ k: 1 }, { unique: true });
    await c.insertMany([1, 2, 3, 4, 5].map((i) => ({ _id: i, k: i * 10, g: i % 2 })));
    const answers = async () => [
      (await c.find({ k: 30 }).toArray()).map((d) => d._id),
      (await c.find({ k: { $gte: 20, $lt: 50 } }).toArray()).map((d) => d._id).sort(),
      (await c.find({ g: 1 }).sort({ k: -1 }).limit(2).toArray()).map((d) => d._id),
      await c.countDocuments({ k: { $in: [10, 50, 60] } }),
    ];
    const visible = await answers();
    expect(visible).toEqual([[3], [2, 3, 4], [5, 3], 2]);
    await db.command({ collMod: 'h', index: { keyPattern: { k: 1 }, hidden: true } });
    expect(await answers()).toEqual(visible);
    expect(await codeOf(c.insertOne({ _id: 6, k: 30 }))).toBe(11000);
    await c.insertOne({ _id: 7, k: 70, g: 1 });
    await db.command({ collMod: 'h', index: { keyPattern: { k: 1 }, hidden: false } });
    expect((await c.find({ k: 70 }).toArray()).map((d) => d._id)).toEqual([7]);
    expect((await c.find({ g: 1 }).sort({ k: -1 }).limit(2).toArray()).map((d) => d._id)).toEqual([
      7, 5,
    ]);
  });

  it('refuses missing collections and indexes, and what the store does not have', async () => {
    expect(
      await codeOf(db.command({ collMod: 'nope', index: { name: 'x', expireAfterSeconds: 1 } })),
    ).toBe(26);
    expect(
      await codeOf(db.command({ collMod: 's', index: { name: 'nope', expireAfterSeconds: 1 } })),
    ).toBe(27);
    for (const option of [
      { validator: { a: { $exists: true } } },
      { validationLevel: 'strict' },
      { validationAction: 'warn' },
      { viewOn: 'x', pipeline: [] },
      { cappedSize: 1000 },
      { changeStreamPreAndPostImages: { enabled: true } },
    ]) {
      const e = await db
        .command({ collMod: 's', ...option })
        .catch((x: unknown) => x as MongoServerError);
      expect(e, JSON.stringify(option)).toMatchObject({ code: 115 });
      expect((e as MongoServerError).message).toMatch(/MONGODB_URI/);
    }
    expect(await codeOf(db.command({ collMod: 's', bogus: 1 }))).toBe(40415);
  });
});

describe('collMod durability', () => {
  it('keeps the new TTL across a restart (snapshot) and a crash (journal)', async () => {
    const dir = join(root, 'db');
    let s = await startEmbeddedMongo({ dataDir: dir });
    let c = new MongoClient(s.uri, { serverSelectionTimeoutMS: 3000 });
    await c.connect();
    await c.db('app').collection('x').createIndex({ at: 1 }, { expireAfterSeconds: 5 });
    await c.db('app').command({ collMod: 'x', index: { name: 'at_1', expireAfterSeconds: 50 } });
    // What a crash now would leave: the journal, no snapshot of the change.
    cpSync(dir, join(root, 'crashed'), { recursive: true });
    rmSync(join(root, 'crashed', 'mongod.lock'), { force: true });
    await c.close();
    await s.stop();
    for (const from of [dir, join(root, 'crashed')]) {
      s = await startEmbeddedMongo({ dataDir: from });
      c = new MongoClient(s.uri, { serverSelectionTimeoutMS: 3000 });
      try {
        await c.connect();
        const ix = (await c.db('app').collection('x').listIndexes().toArray()).find(
          (i) => i.name === 'at_1',
        );
        expect(ix?.expireAfterSeconds, from).toBe(50);
      } finally {
        await c.close();
        await s.stop();
      }
    }
  });
});
