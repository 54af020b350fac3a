// Through the official `mongodb` driver: commands, reply shapes, error codes, indexes, cursors.
import {
  type Db,
  Decimal128,
  Double,
  Int32,
  Long,
  MongoClient,
  type MongoServerError,
  ObjectId,
} from 'mongodb';
import { beforeEach, describe, expect, it } from 'vitest';

import { type EmbeddedMongo } from './index';
import { expectCode, storeForEachTest } from './test-support/driver-store';

const store = storeForEachTest('drv');
let db: Db;
let client: MongoClient;
let server: EmbeddedMongo;
beforeEach(() => {
  ({ db, client, server } = store);
});

describe('handshake and admin commands', () => {
  it('answers ping, hello, buildInfo and listDatabases', async () => {
    expect(await db.admin().ping()).toMatchObject({ ok: 1 });
    const hello = await db.admin().command({ hello: 1 });
    expect(hello).toMatchObject({
      ok: 1,
      isWritablePrimary: true,
      helloOk: true,
      maxWireVersion: 21,
    });
    expect(hello.setName).toBeUndefined();
    expect(hello.topologyVersion).toBeUndefined();
    expect(hello.localTime).toBeInstanceOf(Date);
    const legacy = await db.admin().command({ isMaster: 1 });
    expect(legacy.ismaster).toBe(true);
    expect((await db.admin().command({ buildInfo: 1 })).version).toBe('7.0.0');
    await db.collection('a').insertOne({ x: 1 });
    const { databases } = await db.admin().listDatabases();
    expect(databases.map((d) => d.name)).toContain(db.databaseName);
  });

  it('renames collections with their indexes', async () => {
    const c = db.collection('before');
    await c.createIndex({ k: 1 }, { unique: true });
    await c.insertMany([{ k: 1 }, { k: 2 }]);
    await c.rename('after');
    const after = db.collection('after');
    expect(await after.countDocuments()).toBe(2);
    expect((await after.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_', 'k_1']);
    await expectCode(after.insertOne({ k: 1 }), 11000);
    expect((await db.listCollections().toArray()).map((x) => x.name)).toEqual(['after']);
  });

  it('rejects unknown commands with CommandNotFound (59)', async () => {
    const e = await expectCode(db.command({ frobnicate: 1 }), 59);
    expect(e.message).toMatch(/MONGODB_URI/);
  });

  it('creates, lists and drops collections and databases', async () => {
    await db.createCollection('c1');
    await expectCode(db.createCollection('c1'), 48);
    await db.collection('c2').insertOne({ a: 1 });
    const names = (await db.listCollections().toArray()).map((c) => c.name).sort();
    expect(names).toEqual(['c1', 'c2']);
    expect(await db.listCollections({ name: 'c2' }, { nameOnly: true }).toArray()).toEqual([
      { name: 'c2', type: 'collection' },
    ]);
    expect(await db.collection('c1').drop()).toBe(true);
    expect(await db.command({ drop: 'never-existed' })).toMatchObject({ ok: 1 });
    expect(await db.dropDatabase()).toBe(true);
    expect(await db.listCollections().toArray()).toEqual([]);
    await expectCode(db.command({ listIndexes: 'nope' }), 26);
  });
});

describe('CRUD and reply shapes', () => {
  it('inserts, finds with filter/sort/projection/skip/limit and counts', async () => {
    const c = db.collection('items');
    const res = await c.insertMany(
      Array.from({ length: 10 }, (_, i) => ({
        i,
        tag: i % 2 ? 'odd' : 'even',
        nested: { v: i * 10 },
      })),
    );
    expect(res.insertedCount).toBe(10);
    const docs = await c
      .find({ tag: 'odd' }, { projection: { _id: 0, i: 1, 'nested.v': 1 } })
      .sort({ i: -1 })
      .skip(1)
      .limit(2)
      .toArray();
    expect(docs).toEqual([
      { i: 7, nested: { v: 70 } },
      { i: 5, nested: { v: 50 } },
    ]);
    expect(await c.countDocuments({ i: { $gte: 5 } })).toBe(5);
    expect(await c.estimatedDocumentCount()).toBe(10);
    expect((await db.command({ count: 'items', query: { tag: 'even' } })).n).toBe(5);
    expect((await c.distinct('tag')).sort()).toEqual(['even', 'odd']);
  });

  it('iterates cursors over more than one batch and kills cursors', async () => {
    const c = db.collection('many');
    await c.insertMany(Array.from({ length: 250 }, (_, i) => ({ i })));
    const all = await c.find({}, { batchSize: 30 }).sort({ i: 1 }).toArray();
    expect(all.map((d) => d.i)).toEqual(Array.from({ length: 250 }, (_, i) => i));
    const first = await db.command({ find: 'many', batchSize: 10 });
    expect(first.cursor.firstBatch).toHaveLength(10);
    expect(first.cursor.id).not.toEqual(Long.ZERO);
    const more = await db.command({ getMore: first.cursor.id, collection: 'many', batchSize: 5 });
    expect(more.cursor.nextBatch).toHaveLength(5);
    const killed = await db.command({ killCursors: 'many', cursors: [first.cursor.id] });
    expect(killed.cursorsKilled).toHaveLength(1);
    await expectCode(db.command({ getMore: first.cursor.id, collection: 'many' }), 43);
    const exhausted = await db.command({ find: 'many', filter: { i: 1 } });
    expect(Number(exhausted.cursor.id)).toBe(0);
    // aggregate cursors too
    const agg = await c.aggregate([{ $match: { i: { $lt: 200 } } }], { batchSize: 7 }).toArray();
    expect(agg).toHaveLength(200);
  });

  it('updates with operators, multi, arrayFilters, pipelines and replacement', async () => {
    const c = db.collection('u');
    await c.insertMany([
      { _id: 1 as never, n: 1, arr: [{ x: 1 }, { x: 5 }], tags: ['a'] },
      { _id: 2 as never, n: 2, arr: [{ x: 9 }], tags: [] },
    ]);
    let r = await c.updateOne({ _id: 1 as never }, {
      $inc: { n: 5 },
      $push: { tags: 'b' },
    } as never);
    expect([r.matchedCount, r.modifiedCount]).toEqual([1, 1]);
    r = await c.updateMany(
      {},
      { $set: { 'arr.$[big].big': true } },
      { arrayFilters: [{ 'big.x': { $gt: 4 } }] },
    );
    expect(r.modifiedCount).toBe(2);
    r = await c.updateOne({ _id: 2 as never }, [{ $set: { double: { $multiply: ['$n', 2] } } }]);
    expect(r.modifiedCount).toBe(1);
    r = await c.updateOne({ _id: 1 as never }, { $set: { n: 6 } });
    expect(r.modifiedCount).toBe(0);
    r = await c.replaceOne({ _id: 2 as never }, { replaced: true });
    expect(r.modifiedCount).toBe(1);
    expect(await c.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, n: 6, arr: [{ x: 1 }, { x: 5, big: true }], tags: ['a', 'b'] },
      { _id: 2, replaced: true },
    ]);
    await expectCode(c.updateOne({ _id: 1 as never }, { $set: { _id: 5 } }), 66);
    await expectCode(c.updateOne({ _id: 1 as never }, { $bogus: { a: 1 } } as never), 9);
  });

  it('handles large messages and replies split across batches', async () => {
    const c = db.collection('large');
    const big = 'z'.repeat(3 * 1024 * 1024);
    await c.insertMany(Array.from({ length: 6 }, (_, i) => ({ i, big })));
    const docs = await c.find({}).sort({ i: 1 }).toArray();
    expect(docs.map((d) => d.i)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(docs.every((d) => d.big === big)).toBe(true);
  });

  it('splits replies of binary data across batches (GridFS chunks of a 40 MB file)', async () => {
    // 160 chunks of 255 KiB: the default first batch (101) would be a 26 MB reply.
    const c = db.collection('fs.chunks');
    const data = Buffer.alloc(255 * 1024, 7);
    for (let n = 0; n < 160; n += 20) {
      await c.insertMany(Array.from({ length: 20 }, (_, i) => ({ n: n + i, data })));
    }
    const docs = await c.find({}).sort({ n: 1 }).toArray();
    expect(docs.map((d) => d.n)).toEqual(Array.from({ length: 160 }, (_, i) => i));
    expect(docs.every((d) => d.data.buffer.length === data.length)).toBe(true);
  });

  it('applies the positional $ operator and $facet', async () => {
    const c = db.collection('pos');
    await c.insertOne({
      _id: 1 as never,
      items: [
        { k: 'a', n: 1 },
        { k: 'b', n: 1 },
      ],
    });
    await c.updateOne({ _id: 1 as never, 'items.k': 'b' }, { $inc: { 'items.$.n': 5 } });
    expect((await c.findOne({}))!.items).toEqual([
      { k: 'a', n: 1 },
      { k: 'b', n: 6 },
    ]);
    const [facet] = await c
      .aggregate([
        { $unwind: '$items' },
        { $facet: { total: [{ $count: 'n' }], big: [{ $match: { 'items.n': { $gt: 2 } } }] } },
      ])
      .toArray();
    expect(facet.total).toEqual([{ n: 2 }]);
    expect(facet.big).toHaveLength(1);
  });

  it('upserts with $setOnInsert, only on insert', async () => {
    const c = db.collection('ups');
    const r1 = await c.updateOne(
      { key: 'k', 'meta.kind': 'x' },
      { $set: { v: 1 }, $setOnInsert: { created: 'first' } },
      { upsert: true },
    );
    expect(r1.upsertedCount).toBe(1);
    expect(r1.upsertedId).toBeInstanceOf(ObjectId);
    const r2 = await c.updateOne(
      { key: 'k' },
      { $set: { v: 2 }, $setOnInsert: { created: 'second' } },
      { upsert: true },
    );
    expect(r2.upsertedCount).toBe(0);
    expect(await c.findOne({}, { projection: { _id: 0 } })).toEqual({
      key: 'k',
      meta: { kind: 'x' },
      v: 2,
      created: 'first',
    });
    const r3 = await c.replaceOne({ _id: 'fixed' as never }, { a: 1 }, { upsert: true });
    expect(r3.upsertedId).toBe('fixed');
  });

  it('findAndModify returns lastErrorObject and value', async () => {
    const c = db.collection('fam');
    const raw = await db.command({
      findAndModify: 'fam',
      query: { _id: 'tracks' },
      update: { $inc: { seq: 1 } },
      upsert: true,
      new: true,
    });
    expect(raw.lastErrorObject).toEqual({ n: 1, updatedExisting: false, upserted: 'tracks' });
    expect(raw.value).toEqual({ _id: 'tracks', seq: 1 });
    const next = await c.findOneAndUpdate(
      { _id: 'tracks' as never },
      { $inc: { seq: 1 } },
      { upsert: true, returnDocument: 'after' },
    );
    expect(next).toEqual({ _id: 'tracks', seq: 2 });
    const before = await c.findOneAndUpdate({ _id: 'tracks' as never }, { $inc: { seq: 1 } });
    expect(before).toEqual({ _id: 'tracks', seq: 2 });
    expect(await c.findOneAndDelete({ _id: 'tracks' as never })).toEqual({ _id: 'tracks', seq: 3 });
    expect(await c.findOneAndDelete({ _id: 'tracks' as never })).toBeNull();
    const raw2 = await db.command({ findAndModify: 'fam', query: { a: 1 }, remove: true });
    expect(raw2.lastErrorObject).toEqual({ n: 0 });
  });

  it('deletes one or many', async () => {
    const c = db.collection('del');
    await c.insertMany([{ a: 1 }, { a: 1 }, { a: 2 }]);
    expect((await c.deleteOne({ a: 1 })).deletedCount).toBe(1);
    expect((await c.deleteMany({})).deletedCount).toBe(2);
  });

  it('runs aggregation stages including $lookup, $unwind, $group and $count', async () => {
    await db.collection('artists').insertMany([
      { _id: 1 as never, name: 'A' },
      { _id: 2 as never, name: 'B' },
    ]);
    await db.collection('tracks').insertMany([
      { artist: 1, plays: 5, tags: ['x', 'y'] },
      { artist: 1, plays: 3, tags: ['x'] },
      { artist: 2, plays: 10, tags: [] },
    ]);
    const out = await db
      .collection('tracks')
      .aggregate([
        { $match: { plays: { $gt: 0 } } },
        { $group: { _id: '$artist', total: { $sum: '$plays' } } },
        { $lookup: { from: 'artists', localField: '_id', foreignField: '_id', as: 'artist' } },
        { $unwind: '$artist' },
        { $project: { _id: 0, name: '$artist.name', total: 1 } },
        { $addFields: { big: { $gt: ['$total', 9] } } },
        { $sort: { total: -1 } },
        { $skip: 0 },
        { $limit: 5 },
      ])
      .toArray();
    expect(out).toEqual([
      { total: 10, name: 'B', big: true },
      { total: 8, name: 'A', big: false },
    ]);
    const counted = await db
      .collection('tracks')
      .aggregate([{ $unwind: '$tags' }, { $count: 'n' }])
      .toArray();
    expect(counted).toEqual([{ n: 3 }]);
  });
});

describe('types and ordering', () => {
  it('round-trips number types as written', async () => {
    const c = db.collection('nums');
    await c.insertOne({
      _id: 'n' as never,
      i: new Int32(1),
      d: new Double(2),
      f: 2.5,
      l: Long.fromNumber(3),
      big: Long.fromString('9007199254740993'),
      dec: Decimal128.fromString('1.10'),
      arr: [new Double(4), 5],
    });
    const raw = await c.findOne({ _id: 'n' as never }, { promoteValues: false });
    expect(raw!.i).toBeInstanceOf(Int32);
    expect(raw!.d).toBeInstanceOf(Double);
    expect(raw!.f).toBeInstanceOf(Double);
    expect(raw!.l).toBeInstanceOf(Long);
    expect(raw!.big.toString()).toBe('9007199254740993');
    expect(raw!.dec.toString()).toBe('1.10');
    expect(raw!.arr[0]).toBeInstanceOf(Double);
    expect(raw!.arr[1]).toBeInstanceOf(Int32);
    // numbers of different types compare as numbers
    expect(await c.countDocuments({ i: 1, d: 2, l: 3 })).toBe(1);
    expect(await c.countDocuments({ l: { $gt: new Double(2.5) } })).toBe(1);
    await c.updateOne({ _id: 'n' as never }, { $inc: { d: 1, l: 1 } });
    const after = await c.findOne({ _id: 'n' as never }, { promoteValues: false });
    expect(after!.d).toBeInstanceOf(Double);
    expect(after!.l).toBeInstanceOf(Long);
    expect(Number(after!.l)).toBe(4);
  });

  it('sorts mixed types in BSON order', async () => {
    const c = db.collection('mixed');
    const oid = new ObjectId();
    const date = new Date(0);
    await c.insertMany([
      { k: 'v', v: true },
      { k: 'v', v: date },
      { k: 'v', v: oid },
      { k: 'v', v: { a: 1 } },
      { k: 'v', v: 'str' },
      { k: 'v', v: 10 },
      { k: 'v', v: Long.fromNumber(2) },
      { k: 'v', v: 3.5 },
      { k: 'v', v: null },
      { k: 'v' },
    ]);
    const got = (
      await c
        .find({}, { projection: { _id: 0, v: 1 } })
        .sort({ v: 1 })
        .toArray()
    ).map((d) => d.v);
    expect(got.slice(0, 2)).toEqual([undefined, null].filter(() => false).concat(got.slice(0, 2)));
    expect(got.slice(0, 2).every((v) => v === undefined || v === null)).toBe(true);
    expect(got.slice(2)).toEqual([2, 3.5, 10, 'str', { a: 1 }, oid, true, date]);
    const desc = (await c.find({}).sort({ v: -1 }).toArray()).map((d) => d.v);
    expect(desc[0]).toEqual(date);
  });

  it('compares strings and dates with range operators', async () => {
    const c = db.collection('ranges');
    await c.insertMany([
      { s: 'apple', d: new Date('2024-01-01') },
      { s: 'banana', d: new Date('2024-06-01') },
      { s: 'cherry', d: new Date('2025-01-01') },
      { s: 5, d: 'not a date' },
    ]);
    expect(await c.countDocuments({ s: { $gte: 'b', $lt: 'c' } })).toBe(1);
    expect(await c.countDocuments({ d: { $gte: new Date('2024-03-01') } })).toBe(2);
    expect(await c.countDocuments({ s: { $regex: '^A', $options: 'i' } })).toBe(1);
    expect(await c.countDocuments({ $or: [{ s: 'apple' }, { s: { $in: ['cherry', 5] } }] })).toBe(
      3,
    );
    expect(await c.countDocuments({ x: { $exists: false } })).toBe(4);
  });
});

describe('indexes', () => {
  it('creates, lists and drops indexes with MongoDB reply shapes', async () => {
    const c = db.collection('ix');
    expect(await c.createIndex({ email: 1 }, { unique: true })).toBe('email_1');
    expect(await c.createIndex({ a: 1, b: -1 })).toBe('a_1_b_-1');
    expect(await c.createIndex({ email: 1 }, { unique: true })).toBe('email_1');
    await expectCode(c.createIndex({ email: 1 }, { name: 'other' }), 85);
    await expectCode(c.createIndex({ zzz: 1 }, { name: 'email_1' }), 86);
    const list = await c.listIndexes().toArray();
    expect(list.map((i) => i.name)).toEqual(['_id_', 'email_1', 'a_1_b_-1']);
    expect(list[1]).toMatchObject({ v: 2, key: { email: 1 }, unique: true });
    await c.dropIndex('a_1_b_-1');
    await expectCode(c.dropIndex('a_1_b_-1'), 27);
    await c.dropIndexes();
    expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_']);
  });

  it('enforces unique indexes on every write path with DuplicateKey details', async () => {
    const c = db.collection('uniq');
    await c.createIndex({ email: 1 }, { unique: true });
    await c.insertOne({ email: 'a@x' });
    const e = await expectCode(c.insertOne({ email: 'a@x' }), 11000);
    expect(e.message).toBe(
      `E11000 duplicate key error collection: ${db.databaseName}.uniq index: email_1 dup key: { email: "a@x" }`,
    );
    expect(e.keyPattern).toEqual({ email: 1 });
    expect(e.keyValue).toEqual({ email: 'a@x' });
    await c.insertOne({ email: 'b@x' });
    await expectCode(c.updateOne({ email: 'b@x' }, { $set: { email: 'a@x' } }), 11000);
    await expectCode(
      c.updateOne({ email: 'c@x' }, { $set: { email: 'a@x' } }, { upsert: true }),
      11000,
    );
    await expectCode(c.replaceOne({ email: 'b@x' }, { email: 'a@x' }), 11000);
    const fam = await expectCode(
      c.findOneAndUpdate({ email: 'b@x' }, { $set: { email: 'a@x' } }),
      11000,
    );
    expect(fam.keyValue).toEqual({ email: 'a@x' });
    await expectCode(
      c.bulkWrite([
        { insertOne: { document: { email: 'z@x' } } },
        { insertOne: { document: { email: 'a@x' } } },
      ]),
      11000,
    );
    await expectCode(
      c.insertOne({ _id: (await c.findOne({ email: 'a@x' }))!._id, email: 'new' }),
      11000,
    );
    expect(await c.countDocuments()).toBe(3);
    // a unique index cannot be created over duplicates
    await db.collection('uniq2').insertMany([{ dup: 1 }, { dup: 1 }]);
    await expectCode(db.collection('uniq2').createIndex({ dup: 1 }, { unique: true }), 11000);
  });

  it('ordered and unordered bulk inserts behave as in MongoDB', async () => {
    const c = db.collection('bulk');
    await c.createIndex({ k: 1 }, { unique: true });
    const ordered = await expectCode(c.insertMany([{ k: 1 }, { k: 1 }, { k: 2 }]), 11000);
    expect((ordered as unknown as { result: { insertedCount: number } }).result.insertedCount).toBe(
      1,
    );
    expect(await c.countDocuments()).toBe(1);
    await c.deleteMany({});
    await expectCode(
      c.insertMany([{ k: 1 }, { k: 1 }, { k: 2 }, { k: 2 }, { k: 3 }], { ordered: false }),
      11000,
    );
    expect(await c.countDocuments()).toBe(3);
    const raw = await db.command({
      insert: 'bulk',
      documents: [{ k: 3 }, { k: 4 }, { k: 4 }],
      ordered: false,
    });
    expect(raw.n).toBe(1);
    expect(raw.writeErrors.map((w: { index: number }) => w.index)).toEqual([0, 2]);
    expect(raw.writeErrors[0].code).toBe(11000);
  });

  it('supports compound, sparse and partial unique indexes', async () => {
    const c = db.collection('kinds');
    await c.createIndex({ a: 1, b: 1 }, { unique: true });
    await c.createIndex({ s: 1 }, { unique: true, sparse: true });
    await c.createIndex({ p: 1 }, { unique: true, partialFilterExpression: { active: true } });
    await c.insertMany([
      { a: 1, b: 1 },
      { a: 1, b: 2 },
      { a: 2, b: 1 },
    ]);
    await expectCode(c.insertOne({ a: 1, b: 2 }), 11000);
    // sparse: many documents without `s`, but not two with the same `s`
    await c.insertMany([
      { a: 3, b: 3 },
      { a: 4, b: 4, s: 'x' },
    ]);
    await expectCode(c.insertOne({ a: 5, b: 5, s: 'x' }), 11000);
    // partial: duplicates allowed outside the filter
    await c.insertMany([
      { a: 6, b: 6, p: 1, active: false },
      { a: 7, b: 7, p: 1, active: true },
    ]);
    await expectCode(c.insertOne({ a: 8, b: 8, p: 1, active: true }), 11000);
    await c.insertOne({ a: 9, b: 9, p: 1 });
    // non-sparse unique: two documents missing the field collide on null
    const d = db.collection('nulls');
    await d.createIndex({ n: 1 }, { unique: true });
    await d.insertOne({ x: 1 });
    await expectCode(d.insertOne({ x: 2 }), 11000);
  });

  it('finds through indexes on multikey and dotted fields', async () => {
    const c = db.collection('mk');
    await c.createIndex({ tags: 1 });
    await c.createIndex({ 'meta.slug': 1 }, { unique: true });
    await c.insertMany([
      { tags: ['a', 'b'], meta: { slug: 's1' } },
      { tags: ['b'], meta: { slug: 's2' } },
      { tags: 'c', meta: { slug: 's3' } },
    ]);
    expect(await c.countDocuments({ tags: 'b' })).toBe(2);
    expect(await c.countDocuments({ tags: { $in: ['a', 'c'] } })).toBe(2);
    expect((await c.findOne({ 'meta.slug': 's2' }))!.tags).toEqual(['b']);
    await expectCode(c.insertOne({ meta: { slug: 's1' } }), 11000);
  });
});

describe('query planner', () => {
  it('returns the same results with and without indexes', async () => {
    const plain = db.collection('plain');
    const indexed = db.collection('indexed');
    await indexed.createIndex({ v: 1 });
    await indexed.createIndex({ g: 1 });
    await indexed.createIndex({ u: 1 }, { unique: true });
    let seed = 42;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const pick = (i: number): unknown => {
      const r = rnd();
      if (r < 0.4) return Math.floor(rnd() * 50);
      if (r < 0.6) return `s${Math.floor(rnd() * 30)}`;
      if (r < 0.75) return new Date(Date.UTC(2024, 0, 1 + Math.floor(rnd() * 60)));
      if (r < 0.8) return null;
      if (r < 0.85) return i % 2 ? 2.5 : Long.fromNumber(7);
      return undefined;
    };
    const docs = Array.from({ length: 400 }, (_, i) => {
      const d: Record<string, unknown> = { _id: i, g: `g${i % 7}`, u: i * 3 };
      const v = pick(i);
      if (v !== undefined) d.v = v;
      return d;
    });
    await plain.insertMany(docs.map((d) => ({ ...d })) as never[]);
    await indexed.insertMany(docs.map((d) => ({ ...d })) as never[]);
    // Churn so that the indexes see removals and updates.
    for (const c of [plain, indexed]) {
      await c.deleteMany({ _id: { $in: [3, 30, 300] } } as never);
      await c.updateMany({ g: 'g3' }, { $set: { v: 'updated' } });
      await c.updateOne({ _id: 5 } as never, { $inc: { u: 1 } });
    }
    const filters: Record<string, unknown>[] = [
      {},
      { v: 10 },
      { v: { $in: [1, 2, 's3', null] } },
      { v: { $gte: 10, $lt: 20 } },
      { v: { $gt: 's1' } },
      { v: { $lte: new Date('2024-01-20') } },
      { v: { $lt: 7 } },
      { v: { $lte: null } },
      { v: null },
      { g: 'g2', v: { $gte: 5 } },
      { u: { $gte: 300, $lte: 600 } },
      { u: 15 },
      { g: { $in: ['g1', 'g4'] }, u: { $lt: 200 } },
    ];
    const sorts: (Record<string, 1 | -1> | undefined)[] = [
      undefined,
      { v: 1 },
      { v: -1 },
      { u: -1 },
      { g: 1, u: 1 },
    ];
    for (const filter of filters) {
      for (const sort of sorts) {
        for (const limit of [0, 5]) {
          const run = (c: typeof plain, tiebreak: boolean) => {
            let cur = c.find(filter);
            if (sort) cur = cur.sort(tiebreak ? { ...sort, _id: 1 } : sort);
            return cur.limit(limit).toArray();
          };
          const ctx = JSON.stringify({ filter, sort, limit });
          const [a, b] = await Promise.all([run(plain, true), run(indexed, true)]);
          if (sort || !limit) {
            const norm = (xs: typeof a) =>
              sort ? xs : [...xs].sort((x, y) => Number(x._id) - Number(y._id));
            expect(norm(b), ctx).toEqual(norm(a));
          } else expect(b.length, ctx).toBe(a.length);
          if (sort && Object.keys(sort).length === 1) {
            // Single-field sorts may be served by walking the index: same key sequence.
            const key = Object.keys(sort)[0];
            const [x, y] = await Promise.all([run(plain, false), run(indexed, false)]);
            expect(
              y.map((d) => d[key] ?? null),
              ctx,
            ).toEqual(x.map((d) => d[key] ?? null));
            if (!limit) expect(y.map((d) => d._id).sort(), ctx).toEqual(x.map((d) => d._id).sort());
          }
        }
      }
      expect(await indexed.countDocuments(filter), JSON.stringify(filter)).toBe(
        await plain.countDocuments(filter),
      );
    }
    // single-field sort served by the index
    const top = await indexed.find({}).sort({ u: -1 }).limit(3).toArray();
    expect(top.map((d) => d.u)).toEqual([1197, 1194, 1191]);
  });
});

describe('unsupported features fail clearly', () => {
  it('names the feature and points to MONGODB_URI', async () => {
    const c = db.collection('unsup');
    await c.insertOne({ a: 1 });
    const checks: (() => Promise<unknown>)[] = [
      () => c.find({ $text: { $search: 'x' } }).toArray(),
      () => c.find({ loc: { $near: [0, 0] } }).toArray(),
      () => c.createIndex({ body: 'text' }),
      () => c.createIndex({ loc: '2dsphere' }),
      () => c.aggregate([{ $currentOp: {} }]).toArray(),
      () => c.find({}, { collation: { locale: 'en', strength: 4 } }).toArray(),
    ];
    for (const p of checks) {
      const err = await p().then(
        () => null,
        (e: Error) => e,
      );
      expect(err, 'expected a failure').toBeInstanceOf(Error);
      expect(err!.message).toMatch(/MONGODB_URI/);
    }
    const watch = c.watch();
    const err = await watch.tryNext().then(
      () => null,
      (e: Error) => e,
    );
    await watch.close();
    expect(err!.message).toMatch(/Change streams.*MONGODB_URI/);
  });

  it('rejects transactions with IllegalOperation (20)', async () => {
    const session = client.startSession();
    try {
      session.startTransaction();
      const e = await expectCode(db.collection('tx').findOne({}, { session }), 20);
      expect(e.message).toMatch(/Transactions are not supported.*MONGODB_URI/);
      // On writes the driver wraps code 20 in its retryable-writes hint, as with a real standalone.
      const w = await db
        .collection('tx')
        .insertOne({ a: 1 }, { session })
        .then(
          () => null,
          (err: MongoServerError) => err,
        );
      const original = (w as unknown as { originalError: MongoServerError }).originalError;
      expect(original.code).toBe(20);
      expect(original.message).toMatch(/MONGODB_URI/);
    } finally {
      await session.endSession();
    }
  });

  it('rejects malformed input with BadValue or FailedToParse', async () => {
    await expectCode(db.command({ insert: 'bad', documents: 'nope' }), 9);
    await expectCode(
      db.command({ aggregate: 'bad', pipeline: [{ $match: {}, $limit: 1 }], cursor: {} }),
      9,
    );
    await expectCode(db.collection('bad').insertOne({ _id: [1, 2] as never }), 2);
    await expectCode(
      db
        .collection('bad')
        .find({ a: { $bogusOp: 1 } })
        .toArray(),
      2,
    );
  });

  it('refuses SCRAM authentication', async () => {
    const authed = new MongoClient(server.uri.replace('mongodb://', 'mongodb://user:pw@'), {
      serverSelectionTimeoutMS: 2000,
    });
    const err = await authed.connect().then(
      () => null,
      (e: Error) => e,
    );
    await authed.close();
    expect(err?.message).toMatch(/SCRAM|authentication/i);
  });
});
