// Through the official `mongodb` driver: query and aggregation semantics where mingo's own
// operators differ from MongoDB 7.0, each checked against MongoDB's documented behaviour, with
// and without an index on the queried field (an index-served scan must answer as a full scan).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MinKey, MongoClient, MongoServerError, type Collection, type Db } from 'mongodb';
import { startEmbeddedMongo, type EmbeddedMongo } from './index';

let server: EmbeddedMongo;
let client: MongoClient;
let db: Db;

beforeAll(async () => {
  server = await startEmbeddedMongo();
  client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 3000 });
  await client.connect();
});

afterAll(async () => {
  await client?.close();
  await server?.stop();
});

let dbCounter = 0;
beforeEach(() => {
  db = client.db(`sem${++dbCounter}`);
});

async function expectCode(p: Promise<unknown>, code: number): Promise<MongoServerError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(MongoServerError);
    expect((e as MongoServerError).code).toBe(code);
    return e as MongoServerError;
  }
  throw new Error(`expected error code ${code}`);
}

type D = { _id: number; [k: string]: unknown };

/** The ids a filter selects through find (natural and sorted), count and a leading $match. */
async function ids(c: Collection<D>, filter: object): Promise<number[]> {
  const found = (await c.find(filter).toArray()).map((d) => d._id).sort((a, b) => a - b);
  const sorted = (await c.find(filter).sort({ f: 1 }).toArray()).map((d) => d._id);
  expect(
    [...sorted].sort((a, b) => a - b),
    `sorted ${JSON.stringify(filter)}`,
  ).toEqual(found);
  expect(await c.countDocuments(filter), `count ${JSON.stringify(filter)}`).toBe(found.length);
  const matched = await c.aggregate<D>([{ $match: filter }]).toArray();
  expect(matched.map((d) => d._id).sort((a, b) => a - b)).toEqual(found);
  return found;
}

/** Runs `check` on the collection as it is, then again with an index on `f`. */
async function withAndWithoutIndex(c: Collection<D>, check: () => Promise<void>): Promise<void> {
  await check();
  await c.createIndex({ f: 1 });
  await check();
}

describe('$all (https://www.mongodb.com/docs/manual/reference/operator/query/all/)', () => {
  it('is an $and of equalities: matches a non-array field equal to its value, and nested arrays both ways', async () => {
    const c = db.collection<D>('all');
    await c.insertMany([
      { _id: 1, f: 'x' },
      { _id: 2, f: ['x', 'y'] },
      { _id: 3, f: [1, 2] },
      { _id: 4, f: [[1, 2], 3] },
      { _id: 5, f: 'y' },
      { _id: 6 },
      { _id: 7, f: { a: 1 } },
      { _id: 8, f: 50 },
    ]);
    await withAndWithoutIndex(c, async () => {
      // "{ tags: { $all: [ "ssl", "security" ] } } is equivalent to
      //  { $and: [ { tags: "ssl" }, { tags: "security" } ] }"
      expect(await ids(c, { f: { $all: ['x'] } })).toEqual([1, 2]);
      expect(await ids(c, { f: { $all: ['x', 'y'] } })).toEqual([2]);
      // Non-array field: "{ qty: { $all: [ 50 ] } }" matches qty: 50.
      expect(await ids(c, { f: { $all: [50] } })).toEqual([8]);
      expect(await ids(c, { f: { $all: [{ a: 1 }] } })).toEqual([7]);
      // Nested array: [[1, 2]] matches the field equal to [1, 2] and an array holding [1, 2].
      expect(await ids(c, { f: { $all: [[1, 2]] } })).toEqual([3, 4]);
      expect(await ids(c, { f: { $all: [/^x/] } })).toEqual([1, 2]);
      expect(await ids(c, { f: { $all: [null] } })).toEqual([6]);
      // An empty array matches no documents.
      expect(await ids(c, { f: { $all: [] } })).toEqual([]);
      expect(await ids(c, { f: { $not: { $all: ['x'] } } })).toEqual([3, 4, 5, 6, 7, 8]);
    });
  });

  it('keeps $elemMatch elements, refuses a mix and operator elements (2 BadValue), and honours a collation', async () => {
    const c = db.collection<D>('allem');
    await c.insertMany([
      {
        _id: 1,
        f: [
          { s: 'M', n: 60 },
          { s: 'L', n: 10 },
        ],
      },
      { _id: 2, f: [{ s: 'M', n: 10 }] },
      { _id: 3, f: 'Café' },
    ]);
    const q = {
      f: { $all: [{ $elemMatch: { s: 'M', n: { $gt: 50 } } }, { $elemMatch: { s: 'L' } }] },
    };
    expect(await ids(c, q)).toEqual([1]);
    await expectCode(c.find({ f: { $all: [{ $elemMatch: { s: 'M' } }, 'x'] } }).toArray(), 2);
    await expectCode(c.find({ f: { $all: [{ $gt: 1 }] } }).toArray(), 2);
    // Under a collation its equalities compare strings by it.
    const collation = { locale: 'en', strength: 1 };
    expect(
      (await c.find({ f: { $all: ['cafe'] } }, { collation }).toArray()).map((d) => d._id),
    ).toEqual([3]);
    expect(await c.countDocuments({ f: { $all: ['cafe'] } })).toBe(0);
  });
});

describe('comparison with null (https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/)', () => {
  // Null is alone in its type bracket and a missing field compares as null, so $gte/$lte null
  // match null and missing fields (as { f: null } does) and $gt/$lt null match nothing.
  it('$gte: null and $lte: null match null and missing fields; $gt: null and $lt: null match nothing', async () => {
    const c = db.collection<D>('nulls');
    await c.insertMany([
      { _id: 1, f: null },
      { _id: 2 },
      { _id: 3, f: 0 },
      { _id: 4, f: 'a' },
      { _id: 5, f: false },
      { _id: 6, f: new MinKey() },
      { _id: 7, f: { g: null } },
    ]);
    await withAndWithoutIndex(c, async () => {
      expect(await ids(c, { f: null })).toEqual([1, 2]);
      expect(await ids(c, { f: { $gte: null } })).toEqual([1, 2]);
      expect(await ids(c, { f: { $lte: null } })).toEqual([1, 2]);
      expect(await ids(c, { f: { $gte: null, $lte: null } })).toEqual([1, 2]);
      expect(await ids(c, { f: { $gt: null } })).toEqual([]);
      expect(await ids(c, { f: { $lt: null } })).toEqual([]);
      expect(await ids(c, { f: { $not: { $gte: null } } })).toEqual([3, 4, 5, 6, 7]);
      expect(await ids(c, { f: { $gte: 0 } })).toEqual([3]);
      expect(await ids(c, { 'f.g': { $lte: null } })).toEqual([1, 2, 3, 4, 5, 6, 7]);
    });
    // The same under a collation.
    const collation = { locale: 'en', strength: 2 };
    const found = await c.find({ f: { $gte: null } }, { collation }).toArray();
    expect(found.map((d) => d._id).sort()).toEqual([1, 2]);
  });

  it('in arrays: an element null matches, an empty array does not', async () => {
    const c = db.collection<D>('nullarr');
    await c.insertMany([
      { _id: 1, f: [null, 5] },
      { _id: 2, f: [] },
      { _id: 3, f: [1] },
      { _id: 4 },
    ]);
    await withAndWithoutIndex(c, async () => {
      expect(await ids(c, { f: { $gte: null } })).toEqual([1, 4]);
      expect(await ids(c, { f: { $lte: null } })).toEqual([1, 4]);
      expect(await ids(c, { f: { $elemMatch: { $gte: null } } })).toEqual([1]);
      expect(await ids(c, { f: { $gt: null } })).toEqual([]);
    });
  });
});
