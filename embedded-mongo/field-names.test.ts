// Dotted and `$`-prefixed field names through the `mongodb` driver, as MongoDB 5.0+ allows and
// refuses them (the manual's "Field Names with Periods and Dollar Signs"), and $getField /
// $setField to reach them.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { type Db, MongoClient } from 'mongodb';
import { beforeEach, describe, expect, it } from 'vitest';

import { startEmbeddedMongo } from './index';
import { codeOf, storeForEachTest } from './test-support/driver-store';

const store = storeForEachTest('names');
let db: Db;
beforeEach(() => {
  ({ db } = store);
});

type Row = { _id: number | string; [field: string]: unknown };
const rows = () => db.collection<Row>('c');

/** The first write error of a raw update command (what the driver's bulk API would throw). */
async function updateError(u: unknown, extra: Record<string, unknown> = {}) {
  const reply = await db.command({ update: 'c', updates: [{ q: { _id: 1 }, u, ...extra }] });
  return (reply.writeErrors as { code: number; errmsg: string }[] | undefined)?.[0];
}

describe('inserts', () => {
  it('store $-prefixed and dotted names, top level and nested', async () => {
    const doc = {
      _id: 1,
      $price: 50,
      'a.b': 'dotted',
      location: { $db: 'novels', $ref: '2007042768', $inc: true, 'x.y': 1 },
    };
    await rows().insertOne(doc);
    expect(await rows().findOne({ _id: 1 })).toEqual(doc);
  });

  it('survive the journal and the snapshot', async () => {
    const root = mkdtempSync(join(tmpdir(), 'embedded-mongo-names-'));
    const doc = { _id: 1, $price: 50, 'a.b': { $inc: true } };
    try {
      const live = join(root, 'live');
      const s = await startEmbeddedMongo({ dataDir: live });
      const c = new MongoClient(s.uri, { serverSelectionTimeoutMS: 3000 });
      await c.connect();
      await c.db('app').collection<Row>('c').insertOne(doc);
      cpSync(live, join(root, 'crashed'), { recursive: true });
      rmSync(join(root, 'crashed', 'mongod.lock'), { force: true });
      await c.close();
      await s.stop();
      for (const dir of [live, join(root, 'crashed')]) {
        const again = await startEmbeddedMongo({ dataDir: dir });
        const c2 = new MongoClient(again.uri, { serverSelectionTimeoutMS: 3000 });
        try {
          await c2.connect();
          expect(await c2.db('app').collection<Row>('c').findOne({ _id: 1 }), dir).toEqual(doc);
        } finally {
          await c2.close();
          await again.stop();
        }
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('refuse $-prefixed fields inside an _id document (52)', async () => {
    expect(await codeOf(rows().insertOne({ _id: { $a: 1 } as never }))).toBe(52);
    // DBRef fields are fine.
    await db.collection('refs').insertOne({ _id: { $ref: 'c', $id: 1 } } as never);
  });

  it('are reached with $getField and written with $setField', async () => {
    await rows().insertMany([
      { _id: 1, $price: 50, 'a.b': 1 },
      { _id: 2, $price: 70, a: { b: 1 } },
    ]);
    const cheap = await rows()
      .find({ $expr: { $lt: [{ $getField: { $literal: '$price' } }, 60] } })
      .toArray();
    expect(cheap.map((d) => d._id)).toEqual([1]);
    // 'a.b' as a path is a.b; as a field name it is the dotted field.
    expect((await rows().find({ 'a.b': 1 }).toArray()).map((d) => d._id)).toEqual([2]);
    expect(
      (
        await rows()
          .find({ $expr: { $eq: [{ $getField: 'a.b' }, 1] } })
          .toArray()
      ).map((d) => d._id),
    ).toEqual([1]);
    const set = await rows()
      .aggregate([
        { $match: { _id: 2 } },
        { $replaceWith: { $setField: { field: 'c.d', input: '$$ROOT', value: 'x' } } },
      ])
      .toArray();
    expect(set).toEqual([{ _id: 2, $price: 70, a: { b: 1 }, 'c.d': 'x' }]);
    // A pipeline update may create such names in an existing document ($replaceWith).
    await rows().updateOne({ _id: 2 }, [
      { $replaceWith: { $setField: { field: { $literal: '$tag' }, input: '$$ROOT', value: 1 } } },
    ]);
    await rows().updateOne({ _id: 2 }, [
      { $replaceWith: { $unsetField: { field: 'c.d', input: '$$ROOT' } } },
    ]);
    expect(await rows().findOne({ _id: 2 })).toEqual({ _id: 2, $price: 70, a: { b: 1 }, $tag: 1 });
    // ... but not another _id.
    expect(await codeOf(rows().updateOne({ _id: 2 }, [{ $replaceWith: { _id: 3 } }]))).toBe(66);
  });
});

describe('replacements', () => {
  beforeEach(async () => {
    await rows().insertOne({ _id: 1, a: 1 });
  });

  it('refuse a top-level $-prefixed name (52), allow nested and dotted ones', async () => {
    const e = await updateError({ a: 2, $b: 3 });
    expect(e?.code).toBe(52);
    expect(e?.errmsg).toMatch(/replacement document/);
    expect(await codeOf(rows().replaceOne({ _id: 1 }, { a: 2, $b: 3 }))).toBe(52);
    await rows().replaceOne({ _id: 1 }, { a: { $x: 1 }, 'p.q': 2 });
    expect(await rows().findOne({ _id: 1 })).toEqual({ _id: 1, a: { $x: 1 }, 'p.q': 2 });
  });

  it('an update mixing operators and fields is an unknown modifier (9)', async () => {
    const e = await updateError({ $set: { a: 2 }, b: 3 });
    expect(e?.code).toBe(9);
    expect(e?.errmsg).toMatch(/Unknown modifier: b/);
  });
});

describe('update operators', () => {
  beforeEach(async () => {
    await rows().insertOne({ _id: 1, a: { b: 1 }, arr: [1, 2, 3] });
  });

  it('refuse empty paths and empty parts (56)', async () => {
    expect((await updateError({ $set: { '': 1 } }))?.code).toBe(56);
    expect((await updateError({ $set: { 'a..b': 1 } }))?.code).toBe(56);
    expect((await updateError({ $set: { 'a.': 1 } }))?.code).toBe(56);
    expect((await updateError({ $unset: { '.a': 1 } }))?.code).toBe(56);
  });

  it('refuse $-prefixed parts on an existing document (52), not positional ones', async () => {
    const e = await updateError({ $set: { $hotel: 320 } });
    expect(e).toMatchObject({ code: 52 });
    expect(e?.errmsg).toBe(
      "The dollar ($) prefixed field '$hotel' in '$hotel' is not valid for storage.",
    );
    expect((await updateError({ $set: { 'a.$b': 1 } }))?.code).toBe(52);
    expect((await updateError({ $rename: { a: '$a' } }))?.code).toBe(52);
    await rows().updateOne({ _id: 1, arr: 2 }, { $set: { 'arr.$': 20 } });
    await db.collection('c').updateOne({ _id: 1 as never }, { $inc: { 'arr.$[]': 1 } });
    await rows().updateOne(
      { _id: 1 },
      { $set: { 'arr.$[big]': 0 } },
      { arrayFilters: [{ big: { $gt: 10 } }] },
    );
    expect((await rows().findOne({ _id: 1 }))?.arr).toEqual([2, 0, 4]);
  });

  it('an upsert that inserts may create $-prefixed fields; the same update on a match is 52', async () => {
    const upsert = () =>
      rows().updateOne(
        { date: '2021-07-07' },
        { $set: { phone: 25.17, $hotel: 320.1 } },
        { upsert: true },
      );
    await upsert();
    expect(await rows().findOne({ date: '2021-07-07' }, { projection: { _id: 0 } })).toEqual({
      date: '2021-07-07',
      phone: 25.17,
      $hotel: 320.1,
    });
    expect(await codeOf(upsert())).toBe(52);
  });

  it('an upsert cannot seed a path from two equalities (54 NotSingleValueField)', async () => {
    const e = await db.command({
      update: 'c',
      updates: [{ q: { $and: [{ k: 1 }, { k: 2 }] }, u: { $set: { x: 1 } }, upsert: true }],
    });
    expect(e.writeErrors?.[0]).toMatchObject({ code: 54 });
    const prefix = await db.command({
      update: 'c',
      updates: [{ q: { p: { q: 1 }, 'p.q': 1 }, u: { $set: { x: 1 } }, upsert: true }],
    });
    expect(prefix.writeErrors?.[0]).toMatchObject({ code: 54 });
  });
});
