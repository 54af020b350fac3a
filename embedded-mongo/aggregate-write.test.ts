// $out and $merge, database-level aggregation ($documents), and the count command as drivers
// send it for estimatedDocumentCount; through the `mongodb` driver, compared with what MongoDB's
// documentation and server tests say.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { type Db, Int32, MongoClient, type MongoServerError } from 'mongodb';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';

import { type EmbeddedMongo, startEmbeddedMongo } from './index';
import { codeOf, storeForEachTest } from './test-support/driver-store';

const written: string[][] = [];
const root = mkdtempSync(join(tmpdir(), 'embedded-mongo-agg-'));
const store = storeForEachTest('agg', { onWrite: (names) => written.push(names) });
let db: Db;
let client: MongoClient;
let server: EmbeddedMongo;
beforeEach(() => {
  ({ db, client, server } = store);
  written.length = 0;
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

const noId = { projection: { _id: 0 } };
/** Documents with any _id (the driver's default type wants ObjectIds). */
type Row = { _id: number | string; [field: string]: unknown };

describe('$out', () => {
  it('replaces the target with the results, keeping its indexes, and reports the write', async () => {
    const src = db.collection('src');
    await src.insertMany([
      { k: 'a', v: 1 },
      { k: 'b', v: 2 },
      { k: 'a', v: 3 },
    ]);
    const target = db.collection('totals');
    await target.createIndex({ total: 1 });
    await target.insertOne({ old: true });
    written.length = 0;
    const reply = await src
      .aggregate([
        { $group: { _id: '$k', total: { $sum: '$v' } } },
        { $sort: { _id: 1 } },
        { $out: 'totals' },
      ])
      .toArray();
    expect(reply).toEqual([]);
    expect(await target.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 'a', total: 4 },
      { _id: 'b', total: 2 },
    ]);
    expect((await target.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_', 'total_1']);
    expect(written.flat()).toContain('totals');
  });

  it('writes into another database, and into the collection it reads', async () => {
    const src = db.collection('src');
    await src.insertMany([{ v: 1 }, { v: 2 }]);
    const otherDb = client.db(`${db.databaseName}_other`);
    await src
      .aggregate([
        { $project: { _id: 0, v: 1 } },
        { $out: { db: otherDb.databaseName, coll: 'copy' } },
      ])
      .toArray();
    expect(await otherDb.collection('copy').find({}, noId).sort({ v: 1 }).toArray()).toEqual([
      { v: 1 },
      { v: 2 },
    ]);
    // Documents without _id get one, as on insert.
    expect((await otherDb.collection('copy').findOne())?._id).toBeDefined();
    await src.aggregate([{ $match: { v: 2 } }, { $out: 'src' }]).toArray();
    expect(await src.find({}, noId).toArray()).toEqual([{ v: 2 }]);
  });

  it('leaves the target as it was when a result breaks a unique index', async () => {
    const src = db.collection('src');
    await src.insertMany([{ e: 'x' }, { e: 'x' }]);
    const target = db.collection('t');
    await target.createIndex({ e: 1 }, { unique: true });
    await target.insertOne({ e: 'kept' });
    expect(await codeOf(src.aggregate([{ $out: 't' }]).toArray())).toBe(11000);
    expect(await target.find({}, noId).toArray()).toEqual([{ e: 'kept' }]);
  });

  it('must be the last stage, and is refused inside $facet and $lookup', async () => {
    const src = db.collection('src');
    await src.insertOne({ a: 1 });
    expect(await codeOf(src.aggregate([{ $out: 'x' }, { $match: {} }]).toArray())).toBe(40601);
    expect(await codeOf(src.aggregate([{ $facet: { a: [{ $out: 'x' }] } }]).toArray())).toBe(40600);
    expect(
      await codeOf(
        src.aggregate([{ $lookup: { from: 'y', pipeline: [{ $out: 'x' }], as: 'y' } }]).toArray(),
      ),
    ).toBe(51047);
    expect(await codeOf(src.aggregate([{ $out: 'system.x' }]).toArray())).toBe(31319);
  });
});

describe('$merge', () => {
  beforeEach(async () => {
    await db.collection<Row>('src').insertMany([
      { _id: 1, a: 1, b: 'new' },
      { _id: 2, a: 2, b: 'new' },
    ]);
    await db.collection<Row>('t').insertMany([
      { _id: 1, a: 10, c: 'old' },
      { _id: 3, a: 30, c: 'old' },
    ]);
  });
  const t = () => db.collection<Row>('t').find().sort({ _id: 1 }).toArray();
  const run = (merge: unknown) =>
    db
      .collection<Row>('src')
      .aggregate([{ $merge: merge }])
      .toArray();

  it('defaults to on _id, whenMatched merge, whenNotMatched insert', async () => {
    await run('t');
    expect(await t()).toEqual([
      { _id: 1, a: 1, c: 'old', b: 'new' },
      { _id: 2, a: 2, b: 'new' },
      { _id: 3, a: 30, c: 'old' },
    ]);
  });

  it('replace / discard', async () => {
    await run({ into: 't', whenMatched: 'replace', whenNotMatched: 'discard' });
    expect(await t()).toEqual([
      { _id: 1, a: 1, b: 'new' },
      { _id: 3, a: 30, c: 'old' },
    ]);
  });

  it('keepExisting / insert', async () => {
    await run({ into: 't', whenMatched: 'keepExisting' });
    expect(await t()).toEqual([
      { _id: 1, a: 10, c: 'old' },
      { _id: 2, a: 2, b: 'new' },
      { _id: 3, a: 30, c: 'old' },
    ]);
  });

  it('whenMatched fail is a duplicate key; whenNotMatched fail stops at the first unmatched', async () => {
    expect(await codeOf(run({ into: 't', whenMatched: 'fail' }))).toBe(11000);
    expect(await codeOf(run({ into: 't', whenMatched: 'replace', whenNotMatched: 'fail' }))).toBe(
      13113,
    );
    // Like MongoDB, the results before the failing one were written.
    expect((await t())[0]).toEqual({ _id: 1, a: 1, b: 'new' });
  });

  it('a pipeline with $$new and let variables', async () => {
    await run({
      into: 't',
      let: { add: '$a' },
      whenMatched: [{ $set: { a: { $add: ['$a', '$$add'] }, seen: true } }],
      whenNotMatched: 'discard',
    });
    expect(await t()).toEqual([
      { _id: 1, a: 11, c: 'old', seen: true },
      { _id: 3, a: 30, c: 'old' },
    ]);
    await run({
      into: 't',
      whenMatched: [{ $replaceWith: { $mergeObjects: ['$$ROOT', '$$new'] } }],
    });
    expect((await t())[0]).toEqual({ _id: 1, a: 1, c: 'old', seen: true, b: 'new' });
  });

  it('on other fields needs a unique index on exactly them, and the fields in every result', async () => {
    await db.collection<Row>('t').updateOne({ _id: 1 }, { $set: { key: 'k1' } });
    const src = db.collection<Row>('src');
    await src.updateOne({ _id: 1 }, { $set: { key: 'k1' } });
    const pipeline = (merge: unknown) => [{ $project: { _id: 0 } }, { $merge: merge }];
    expect(await codeOf(src.aggregate(pipeline({ into: 't', on: 'key' })).toArray())).toBe(51183);
    await db.collection<Row>('t').createIndex({ key: 1 }, { unique: true });
    // The result without a key cannot be matched.
    expect(await codeOf(src.aggregate(pipeline({ into: 't', on: 'key' })).toArray())).toBe(51132);
    await src
      .aggregate([
        { $match: { key: 'k1' } },
        { $project: { _id: 0 } },
        { $merge: { into: 't', on: 'key', whenMatched: 'replace' } },
      ])
      .toArray();
    expect((await t())[0]).toEqual({ _id: 1, a: 1, b: 'new', key: 'k1' });
    // Replacing the matched document's _id is refused.
    expect(
      await codeOf(
        src
          .aggregate([
            { $match: { key: 'k1' } },
            { $merge: { into: 't', on: 'key', whenMatched: 'replace' } },
          ])
          .toArray(),
      ),
    ).toBeUndefined();
    await src.updateOne({ _id: 1 }, { $set: { _id2: 1 } });
    await db.collection<Row>('src2').insertOne({ _id: 99, key: 'k1' });
    expect(
      await codeOf(
        db
          .collection<Row>('src2')
          .aggregate([{ $merge: { into: 't', on: 'key', whenMatched: 'replace' } }])
          .toArray(),
      ),
    ).toBe(66);
  });

  it('refuses unsupported mode combinations and let without a pipeline', async () => {
    expect(await codeOf(run({ into: 't', whenMatched: 'fail', whenNotMatched: 'fail' }))).toBe(
      51181,
    );
    expect(
      await codeOf(run({ into: 't', whenMatched: 'keepExisting', whenNotMatched: 'discard' })),
    ).toBe(51181);
    expect(await codeOf(run({ into: 't', whenMatched: 'replace', let: { x: 1 } }))).toBe(51199);
    expect(await codeOf(run({ into: 't', bogus: 1 }))).toBe(40415);
  });

  it('creates the target, in another database too, keeping number types', async () => {
    const other = client.db(`${db.databaseName}_m`);
    await db.collection<Row>('typed').insertOne({ _id: 7, i: new Int32(5), d: 2.5 });
    await db
      .collection<Row>('typed')
      .aggregate([{ $merge: { into: { db: other.databaseName, coll: 'fresh' } } }])
      .toArray();
    const raw = await other.collection<Row>('fresh').findOne({ _id: 7 }, { promoteValues: false });
    expect(raw?.i).toBeInstanceOf(Int32);
  });
});

describe('database-level aggregate', () => {
  it('runs $documents pipelines, with $lookup into a collection', async () => {
    await db.collection<Row>('names').insertMany([
      { _id: 1, name: 'one' },
      { _id: 2, name: 'two' },
    ]);
    const out = await db
      .aggregate([
        { $documents: [{ x: 1 }, { x: 2 }, { x: 3 }] },
        { $match: { x: { $gte: 2 } } },
        { $lookup: { from: 'names', localField: 'x', foreignField: '_id', as: 'n' } },
        { $project: { x: 1, name: { $first: '$n.name' } } },
      ])
      .toArray();
    expect(out).toEqual([{ x: 2, name: 'two' }, { x: 3 }]);
    // ... and can write its results.
    await db.aggregate([{ $documents: [{ _id: 'd' }] }, { $out: 'fromDocs' }]).toArray();
    expect(await db.collection('fromDocs').find().toArray()).toEqual([{ _id: 'd' }]);
  });

  it('lists the sessions it has seen with $listLocalSessions, until endSessions', async () => {
    const session = client.startSession();
    await db.collection('c').insertOne({ a: 1 }, { session });
    // Another client looks (this one's pool would reuse the session for its next command).
    const other = new MongoClient(server.uri, { serverSelectionTimeoutMS: 3000 });
    try {
      await other.connect();
      const mine = () =>
        other
          .db(db.databaseName)
          .aggregate([{ $listLocalSessions: {} }, { $match: { '_id.id': session.id?.id } }])
          .toArray();
      const [listed] = await mine();
      expect(listed?._id.uid).toBeDefined();
      expect(listed?.lastUse).toBeInstanceOf(Date);
      await other.db('admin').command({ endSessions: [session.id] });
      expect(await mine()).toEqual([]);
      expect(
        await other
          .db(db.databaseName)
          .aggregate([{ $listLocalSessions: { users: [{ user: 'u', db: 'admin' }] } }])
          .toArray(),
      ).toEqual([]);
    } finally {
      await session.endSession();
      await other.close();
    }
  });

  it('needs a collection for other first stages; $currentOp is refused clearly', async () => {
    expect(await codeOf(db.aggregate([{ $match: {} }]).toArray())).toBe(73);
    const e = await client
      .db('admin')
      .aggregate([{ $currentOp: {} }])
      .toArray()
      .catch((x: unknown) => x as MongoServerError);
    expect(e).toMatchObject({ code: 115 });
    expect((e as MongoServerError).message).toMatch(/\$currentOp is not supported/);
    expect(
      await codeOf(
        db
          .collection('c')
          .aggregate([{ $documents: [] }])
          .toArray(),
      ),
    ).toBe(40602);
  });
});

describe('count', () => {
  it('answers estimatedDocumentCount (count with no query) and countDocuments', async () => {
    const c = db.collection('c');
    expect(await c.estimatedDocumentCount()).toBe(0);
    await c.insertMany(Array.from({ length: 7 }, (_, i) => ({ i })));
    expect(await c.estimatedDocumentCount()).toBe(7);
    expect(await c.countDocuments({ i: { $gte: 5 } })).toBe(2);
    // The command itself, as driver 6+ sends it for estimatedDocumentCount.
    expect(await db.command({ count: 'c' })).toMatchObject({ n: 7, ok: 1 });
  });
});

describe('durability of $out and $merge', () => {
  it('replays them from the journal after a crash', async () => {
    const dir = join(root, 'live');
    const s = await startEmbeddedMongo({ dataDir: dir });
    const c = new MongoClient(s.uri, { serverSelectionTimeoutMS: 3000 });
    try {
      await c.connect();
      const d = c.db('app');
      await d.collection<Row>('src').insertMany([
        { _id: 1, v: 1 },
        { _id: 2, v: 2 },
      ]);
      await d.collection<Row>('out').createIndex({ v: 1 });
      await d.collection<Row>('out').insertOne({ _id: 'gone' });
      await d
        .collection<Row>('src')
        .aggregate([{ $out: 'out' }])
        .toArray();
      await d
        .collection<Row>('src')
        .aggregate([{ $project: { w: '$v' } }, { $merge: { into: 'out' } }])
        .toArray();
      // A copy of the live files is what a crash right now would leave.
      cpSync(dir, join(root, 'crashed'), { recursive: true });
    } finally {
      await c.close();
      await s.stop();
    }
    rmSync(join(root, 'crashed', 'mongod.lock'), { force: true });
    const again = await startEmbeddedMongo({ dataDir: join(root, 'crashed') });
    const c2 = new MongoClient(again.uri, { serverSelectionTimeoutMS: 3000 });
    try {
      await c2.connect();
      const out = c2.db('app').collection<Row>('out');
      expect(await out.find().sort({ _id: 1 }).toArray()).toEqual([
        { _id: 1, v: 1, w: 1 },
        { _id: 2, v: 2, w: 2 },
      ]);
      expect((await out.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_', 'v_1']);
    } finally {
      await c2.close();
      await again.stop();
    }
  });
});
