// Through the official `mongodb` driver: collations, `let` variables, write error details and
// BSON type order in aggregation stages, each compared with MongoDB's documented behaviour.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  type Db,
  Double,
  Long,
  MaxKey,
  MinKey,
  MongoBulkWriteError,
  MongoClient,
  MongoServerError,
  ObjectId,
} from 'mongodb';
import { beforeEach, describe, expect, it } from 'vitest';

import { startEmbeddedMongo } from './index';
import { storeForEachTest } from './test-support/driver-store';

const store = storeForEachTest('coll');
let db: Db;
beforeEach(() => {
  ({ db } = store);
});

async function serverError(p: Promise<unknown>): Promise<MongoServerError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(MongoServerError);
    return e as MongoServerError;
  }
  throw new Error('expected a server error');
}

const WORDS = ['cafe', 'Cafe', 'café', 'CAFÉ', 'cab', 'Cad'];

async function words() {
  const c = db.collection<{ _id: number; w: string }>('words');
  await c.insertMany(WORDS.map((w, i) => ({ _id: i, w })));
  return c;
}

const byId = (docs: { _id: number }[]) => docs.map((d) => d._id).sort((a, b) => a - b);

describe('collation (https://www.mongodb.com/docs/manual/reference/collation/)', () => {
  it('strength 1 ignores case and diacritics, 2 ignores case only, 3 distinguishes both', async () => {
    const c = await words();
    const find = (strength: number) =>
      c.find({ w: 'cafe' }, { collation: { locale: 'en', strength } }).toArray();
    expect(byId(await find(1))).toEqual([0, 1, 2, 3]);
    expect(byId(await find(2))).toEqual([0, 1]);
    expect(byId(await find(3))).toEqual([0]);
    // No collation (and the simple collation) is a binary comparison.
    expect(byId(await c.find({ w: 'cafe' }).toArray())).toEqual([0]);
    expect(
      byId(await c.find({ w: 'cafe' }, { collation: { locale: 'simple' } }).toArray()),
    ).toEqual([0]);
  });

  it('applies to $in, $ne and range operators', async () => {
    const c = await words();
    const collation = { locale: 'en_US', strength: 2 };
    expect(byId(await c.find({ w: { $in: ['CAB', 'cad'] } }, { collation }).toArray())).toEqual([
      4, 5,
    ]);
    expect(byId(await c.find({ w: { $ne: 'CAFE' } }, { collation }).toArray())).toEqual([
      2, 3, 4, 5,
    ]);
    // ICU order: cab < Cad < cafe (binary order would put 'Cad' before every lower-case word).
    expect(byId(await c.find({ w: { $lt: 'cae' } }, { collation }).toArray())).toEqual([4, 5]);
    expect(byId(await c.find({ w: { $lt: 'cae' } }).toArray())).toEqual([1, 3, 4, 5]);
  });

  it('sorts strings in the locale order', async () => {
    const c = await words();
    const sorted = await c
      .find({}, { sort: { w: 1, _id: 1 }, collation: { locale: 'en', strength: 3 } })
      .toArray();
    // ICU tertiary order: lower case before upper case, unaccented before accented.
    expect(sorted.map((d) => d.w)).toEqual(['cab', 'Cad', 'cafe', 'Cafe', 'café', 'CAFÉ']);
    const binary = await c.find({}, { sort: { w: 1 } }).toArray();
    expect(binary.map((d) => d.w)).toEqual(['CAFÉ', 'Cad', 'Cafe', 'cab', 'cafe', 'café']);
  });

  it('applies to count, distinct, update, delete, findAndModify and aggregate', async () => {
    const c = await words();
    const collation = { locale: 'en', strength: 1 };
    expect(await c.countDocuments({ w: 'CAFE' }, { collation })).toBe(4);
    expect(await c.countDocuments({ w: 'CAFE' })).toBe(0);
    // distinct keeps one value per class of equal strings.
    expect(await c.distinct('w', {}, { collation })).toHaveLength(3);
    expect(await c.distinct('w', {})).toHaveLength(6);
    const up = await c.updateMany({ w: 'CAFE' }, { $set: { hit: true } }, { collation });
    expect(up.modifiedCount).toBe(4);
    const fm = await c.findOneAndUpdate(
      { w: 'CAD' },
      { $set: { w: 'cad' } },
      { collation, returnDocument: 'after' },
    );
    expect(fm).toEqual({ _id: 5, w: 'cad' });
    const agg = await c
      .aggregate([{ $match: { w: 'cafe' } }, { $sort: { w: -1, _id: 1 } }], {
        collation: { locale: 'en', strength: 2 },
      })
      .toArray();
    expect(agg.map((d) => d._id)).toEqual([0, 1]);
    const del = await c.deleteMany({ w: 'CAFÉ' }, { collation: { locale: 'en', strength: 2 } });
    expect(del.deletedCount).toBe(2);
    expect(byId(await c.find({}).toArray())).toEqual([0, 1, 4, 5]);
  });

  it('a unique index with strength 2 refuses values that differ only in case', async () => {
    const c = db.collection('users');
    await c.createIndex(
      { email: 1 },
      { unique: true, collation: { locale: 'en', strength: 2 }, name: 'email_ci' },
    );
    await c.insertOne({ email: 'Ann@Example.com' });
    const e = await serverError(c.insertOne({ email: 'ann@example.COM' }));
    expect(e.code).toBe(11000);
    expect(e.errorResponse.keyPattern).toEqual({ email: 1 });
    // Accents still differ at strength 2.
    await c.insertOne({ email: 'ánn@example.com' });
    // listIndexes reports the collation with every field filled in, as MongoDB does.
    const ix = (await c.listIndexes().toArray()).find((i) => i.name === 'email_ci')!;
    expect(ix.collation).toMatchObject({ locale: 'en', strength: 2, caseLevel: false });
    // The same key with another collation is another index.
    await c.createIndex({ email: 1 }, { name: 'email_bin' });
    expect(await c.countDocuments({ email: 'ANN@example.com' })).toBe(0);
  });

  it('refuses, under a collation, what would still compare binary (no silent wrong answer)', async () => {
    const c = await words();
    const collation = { locale: 'en', strength: 2 };
    const refusals: (() => Promise<unknown>)[] = [
      () => c.aggregate([{ $group: { _id: null, m: { $max: '$w' } } }], { collation }).toArray(),
      () =>
        c
          .aggregate([{ $lookup: { from: 'x', localField: 'w', foreignField: 'w', as: 'j' } }], {
            collation,
          })
          .toArray(),
      () => c.updateOne({ _id: 1 }, { $addToSet: { tags: 'A' } } as never, { collation }),
    ];
    for (const run of refusals) {
      const e = await serverError(run());
      expect(e.code).toBe(115);
      expect(e.message).toMatch(/non-simple collation.*MONGODB_URI/);
    }
    // The same operations without a collation still work.
    expect(await c.aggregate([{ $group: { _id: null, m: { $max: '$w' } } }]).toArray()).toEqual([
      { _id: null, m: 'café' },
    ]);
  });

  it('hashes (distinct, unique keys) exactly as the collator compares: ß = ss, Đ = D at strength 1', async () => {
    const c = db.collection<{ _id: number; w: string }>('hash');
    await c.insertMany(
      ['Straße', 'STRASSE', 'strasse', 'Đuro', 'duro', 'Ø', 'o'].map((w, i) => ({ _id: i, w })),
    );
    const strength1 = await c.distinct('w', {}, { collation: { locale: 'en', strength: 1 } });
    expect(strength1).toEqual(['Straße', 'Đuro', 'Ø']);
    // At strength 2 (ICU secondary) ß/ss and Đ/D differ, case does not.
    const strength2 = await c.distinct('w', {}, { collation: { locale: 'en', strength: 2 } });
    expect(strength2).toEqual(['Straße', 'STRASSE', 'Đuro', 'duro', 'Ø', 'o']);
  });

  it('refuses invalid collations with MongoDB error codes, and options it does not implement', async () => {
    const c = await words();
    const invalid = await serverError(c.find({}, { collation: { locale: 'xx_YY' } }).toArray());
    expect(invalid.code).toBe(2);
    expect(invalid.message).toMatch(/Field 'locale' is invalid/);
    const missing = await serverError(
      c.find({}, { collation: { strength: 2 } as never }).toArray(),
    );
    expect(missing.code).toBe(40414);
    const unknown = await serverError(
      c.find({}, { collation: { locale: 'en', colour: 1 } as never }).toArray(),
    );
    expect(unknown.code).toBe(40415);
    const strength = await serverError(
      c.find({}, { collation: { locale: 'en', strength: 9 } }).toArray(),
    );
    expect(strength.code).toBe(2);
    const quaternary = await serverError(
      c.find({}, { collation: { locale: 'en', strength: 4 } }).toArray(),
    );
    expect(quaternary.code).toBe(115);
    expect(quaternary.message).toMatch(/MONGODB_URI/);
  });
});

describe('a collection default collation (https://www.mongodb.com/docs/manual/reference/method/db.createCollection/)', () => {
  it('applies to queries and indexes that name no collation; an explicit simple one overrides it', async () => {
    await db.createCollection('ci', { collation: { locale: 'en', strength: 2 } });
    const c = db.collection<{ _id: string | number; name?: string }>('ci');
    const [info] = await db.listCollections({ name: 'ci' }).toArray();
    expect(
      (info as unknown as { options: { collation: unknown } }).options.collation,
    ).toMatchObject({
      locale: 'en',
      strength: 2,
    });
    await c.insertMany([
      { _id: 1, name: 'Ann' },
      { _id: 2, name: 'ann' },
      { _id: 3, name: 'Bob' },
    ]);
    expect(byId((await c.find({ name: 'ANN' }).toArray()) as { _id: number }[])).toEqual([1, 2]);
    expect(await c.find({ name: 'ANN' }, { collation: { locale: 'simple' } }).toArray()).toEqual(
      [],
    );
    expect(await c.countDocuments({ name: 'ann' })).toBe(2);
    // The _id index has the default collation too: 'x' and 'X' are the same _id.
    await c.insertOne({ _id: 'x' });
    expect((await serverError(c.insertOne({ _id: 'X' }))).code).toBe(11000);
    // An index naming no collation inherits it; one with { locale: 'simple' } does not.
    await c.deleteMany({ name: 'ann', _id: 2 });
    await c.createIndex({ name: 1 }, { unique: true });
    await c.createIndex({ other: 1 }, { collation: { locale: 'simple' } });
    const ixs = await c.listIndexes().toArray();
    expect(ixs.find((i) => i.name === 'name_1')?.collation).toMatchObject({ strength: 2 });
    expect(ixs.find((i) => i.name === 'other_1')?.collation).toBeUndefined();
    expect((await serverError(c.insertOne({ _id: 9, name: 'BOB' }))).code).toBe(11000);
  });

  it('an index with the query collation serves its equality lookups; results match a scan', async () => {
    await db.createCollection('big', { collation: { locale: 'en', strength: 2 } });
    const c = db.collection<{ _id: number; k: string; n: number }>('big');
    await c.insertMany(
      Array.from({ length: 300 }, (_, i) => ({ _id: i, k: `Key${i % 30}`, n: i % 7 })),
    );
    const scan = async (f: object) => byId(await c.find(f).toArray());
    const before = [
      await scan({ k: 'KEY7' }),
      await scan({ k: { $in: ['key1', 'KEY2'] }, n: 3 }),
      await scan({ k: null }),
    ];
    await c.createIndex({ k: 1 });
    expect([
      await scan({ k: 'KEY7' }),
      await scan({ k: { $in: ['key1', 'KEY2'] }, n: 3 }),
      await scan({ k: null }),
    ]).toEqual(before);
    expect(before[0]).toHaveLength(10);
    // Under another collation the index does not serve, and the answer is still right.
    expect(
      byId(await c.find({ k: 'KEY7' }, { collation: { locale: 'en', strength: 3 } }).toArray()),
    ).toEqual([]);
    expect(
      byId(await c.find({ k: 'Key7' }, { collation: { locale: 'simple' } }).toArray()),
    ).toHaveLength(10);
  });

  it('survives a restart of a durable store', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'embedded-mongo-collation-'));
    try {
      let s = await startEmbeddedMongo({ dataDir: dir });
      let cl = new MongoClient(s.uri);
      await cl.db('d').createCollection('c', { collation: { locale: 'en', strength: 1 } });
      await cl.db('d').collection('c').insertOne({ w: 'café' });
      await cl.close();
      await s.stop();
      s = await startEmbeddedMongo({ dataDir: dir });
      cl = new MongoClient(s.uri);
      expect(await cl.db('d').collection('c').countDocuments({ w: 'CAFE' })).toBe(1);
      await cl.close();
      await s.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('let (https://www.mongodb.com/docs/manual/reference/command/find/#std-label-find-let-syntax)', () => {
  it('binds $$variables in $expr for find, count-like aggregate, update, delete and findAndModify', async () => {
    const c = db.collection<{ _id: number; x?: string; n?: number }>('letc');
    await c.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }]);
    const byVar = { $expr: { $eq: ['$_id', '$$id'] } };
    expect(await c.find(byVar, { let: { id: 2 } }).toArray()).toEqual([{ _id: 2 }]);
    const agg = await c
      .aggregate([{ $match: byVar }, { $project: { v: '$$v' } }], { let: { id: 3, v: 'x' } })
      .toArray();
    expect(agg).toEqual([{ _id: 3, v: 'x' }]);
    // let values are expressions, evaluated once.
    await c.updateOne(byVar, [{ $set: { x: '$$x' } }], {
      let: { id: 1, x: { $concat: ['a', 'b'] } },
    });
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, x: 'ab' });
    const fm = await c.findOneAndUpdate(byVar, [{ $set: { n: '$$n' } }], {
      let: { id: 2, n: 7 },
      returnDocument: 'after',
    });
    expect(fm).toEqual({ _id: 2, n: 7 });
    const del = await c.deleteOne(byVar, { let: { id: 3 } });
    expect(del.deletedCount).toBe(1);
  });

  it('projections see the collation ($elemMatch) and the let variables', async () => {
    const c = db.collection<{ _id: number; items: { n: string }[] }>('proj');
    await c.insertOne({ _id: 1, items: [{ n: 'A' }, { n: 'b' }] });
    const [byCollation] = await c
      .find(
        {},
        {
          collation: { locale: 'en', strength: 2 },
          projection: { items: { $elemMatch: { n: 'B' } } },
        },
      )
      .toArray();
    expect(byCollation.items).toEqual([{ n: 'b' }]);
    const [byLet] = await c.find({}, { let: { v: 5 }, projection: { v: '$$v' } }).toArray();
    expect(byLet).toEqual({ _id: 1, v: 5 });
  });

  it("an update statement's constants (c) join the command's let in its pipeline", async () => {
    const c = db.collection<{ _id: number; a?: number; b?: number }>('consts');
    await c.insertOne({ _id: 1 });
    const r = await db.command({
      update: 'consts',
      updates: [{ q: { _id: 1 }, u: [{ $set: { a: '$$a', b: '$$b' } }], c: { b: 2 } }],
      let: { a: 1 },
    });
    expect(r.nModified).toBe(1);
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, a: 1, b: 2 });
  });

  it('refuses a variable name MongoDB refuses', async () => {
    const c = db.collection('letbad');
    const e = await serverError(c.find({}, { let: { Bad: 1 } }).toArray());
    expect(e.code).toBe(16866);
  });
});

describe('write error details (https://www.mongodb.com/docs/manual/reference/command/insert/#output)', () => {
  it('writeErrors carry index, code, keyPattern, keyValue and errmsg', async () => {
    const c = db.collection<{ _id?: number; k: string }>('dups');
    await c.createIndex({ k: 1 }, { unique: true });
    await c.insertOne({ _id: 1, k: 'a' });
    const raw = await db.command({
      insert: 'dups',
      documents: [{ _id: 2, k: 'b' }, { _id: 3, k: 'a' }, { _id: 1 }],
      ordered: false,
    });
    expect(raw.n).toBe(1);
    expect(raw.writeErrors).toEqual([
      {
        index: 1,
        code: 11000,
        keyPattern: { k: 1 },
        keyValue: { k: 'a' },
        errmsg: `E11000 duplicate key error collection: ${db.databaseName}.dups index: k_1 dup key: { k: "a" }`,
      },
      {
        index: 2,
        code: 11000,
        keyPattern: { _id: 1 },
        keyValue: { _id: 1 },
        errmsg: `E11000 duplicate key error collection: ${db.databaseName}.dups index: _id_ dup key: { _id: 1 }`,
      },
    ]);
    const bulk = await c.insertMany([{ k: 'a' }], { ordered: false }).catch((e: unknown) => e);
    expect(bulk).toBeInstanceOf(MongoBulkWriteError);
    expect((bulk as MongoBulkWriteError).writeErrors).toBeDefined();
  });

  it('findAndModify errors are command errors with code, codeName and errmsg at the top level', async () => {
    const c = db.collection<{ _id: number; k: number }>('fam');
    await c.createIndex({ k: 1 }, { unique: true });
    await c.insertMany([
      { _id: 1, k: 1 },
      { _id: 2, k: 2 },
    ]);
    const e = await serverError(c.findOneAndUpdate({ _id: 2 }, { $set: { k: 1 } }));
    expect(e.errorResponse).toMatchObject({
      ok: 0,
      code: 11000,
      codeName: 'DuplicateKey',
      keyPattern: { k: 1 },
      keyValue: { k: 1 },
    });
    expect(e.errorResponse.errmsg).toMatch(/^E11000 duplicate key error/);
  });
});

describe('BSON type order after the indexed prefix of an aggregation', () => {
  // https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/
  it('$sort after $group orders mixed types MinKey < null < numbers < strings < objects < ObjectId < booleans < dates < MaxKey', async () => {
    const c = db.collection('mixed');
    const oid = new ObjectId('650000000000000000000000');
    const date = new Date(0);
    const values = [new MaxKey(), date, true, oid, [1], { a: 1 }, 'str', 2, null, new MinKey()];
    await c.insertMany(values.map((v, i) => ({ i, v })));
    const out = await c
      .aggregate([{ $group: { _id: '$v', n: { $sum: 1 } } }, { $sort: { _id: 1 } }])
      .toArray();
    // An array sorts by its smallest element ascending (sort semantics for arrays), so [1]
    // comes with the numbers, before 2.
    expect(out.map((d) => d._id)).toEqual([
      new MinKey(),
      null,
      [1],
      2,
      'str',
      { a: 1 },
      oid,
      true,
      date,
      new MaxKey(),
    ]);
  });

  it('$group and distinct treat 1, 1.0 and NumberLong(1) as one value (numbers compare by value)', async () => {
    const c = db.collection('nums');
    await c.insertMany([{ n: 1 }, { n: new Double(1) }, { n: Long.fromNumber(1) }, { n: 1.5 }]);
    const groups = await c.aggregate([{ $group: { _id: '$n', c: { $sum: 1 } } }]).toArray();
    expect(groups).toEqual([
      { _id: 1, c: 3 },
      { _id: 1.5, c: 1 },
    ]);
    expect(await c.distinct('n')).toEqual([1, 1.5]);
  });

  it('$sortByCount ties and $sort on mixed numbers and strings follow BSON order', async () => {
    const c = db.collection('sbc');
    await c.insertMany([{ t: 'b' }, { t: 10 }, { t: 'a' }, { t: 9 }, { t: 'a' }]);
    const sorted = await c
      .aggregate([{ $project: { _id: 0, t: 1 } }, { $sort: { t: -1 } }])
      .toArray();
    expect(sorted.map((d) => d.t)).toEqual(['b', 'a', 'a', 10, 9]);
    const counts = await c.aggregate([{ $sortByCount: '$t' }]).toArray();
    expect(counts[0]).toEqual({ _id: 'a', count: 2 });
    expect(counts).toHaveLength(4);
  });
});

describe('collation in aggregation stages', () => {
  // "$group ... uses the collation to compare group keys" and expression comparisons honour it
  // (https://www.mongodb.com/docs/manual/reference/collation/#operations-that-support-collation).
  it('groups keys the collation holds equal, keeping the first key seen', async () => {
    const c = await words();
    const out = await c
      .aggregate([{ $sort: { _id: 1 } }, { $group: { _id: '$w', n: { $sum: 1 } } }], {
        collation: { locale: 'en', strength: 1 },
      })
      .toArray();
    expect(out.map((d) => [d._id, d.n]).sort()).toEqual([
      ['Cad', 1],
      ['cab', 1],
      ['cafe', 4],
    ]);
    const counts = await c
      .aggregate([{ $sort: { _id: 1 } }, { $sortByCount: '$w' }], {
        collation: { locale: 'en', strength: 2 },
      })
      .toArray();
    expect(counts[0]).toEqual({ _id: 'cafe', count: 2 });
    expect(counts).toHaveLength(4);
  });

  it('compares strings in $expr by the collation', async () => {
    const c = await words();
    const docs = await c
      .find({ $expr: { $eq: ['$w', 'CAFE'] } }, { collation: { locale: 'en', strength: 2 } })
      .toArray();
    expect(byId(docs)).toEqual([0, 1]);
    expect(await c.find({ $expr: { $eq: ['$w', 'CAFE'] } }).toArray()).toEqual([]);
  });
});
