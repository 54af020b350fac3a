// Through the official `mongodb` driver: query and aggregation semantics where mingo's own
// operators differ from MongoDB 7.0, each checked against MongoDB's documented behaviour, with
// and without an index on the queried field (an index-served scan must answer as a full scan).
import { type Collection, type Db, MinKey } from 'mongodb';
import { beforeEach, describe, expect, it } from 'vitest';

import { expectCode, storeForEachTest } from './test-support/driver-store';

const store = storeForEachTest('sem');
let db: Db;
beforeEach(() => {
  ({ db } = store);
});

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

describe('null through arrays (https://www.mongodb.com/docs/manual/tutorial/query-for-null-fields/)', () => {
  // MongoDB 7.0's documented matching of { 'a.b': null }: "a" is not an object or array (or is
  // missing), or an object without b (or with b null), or an array holding at least one such
  // object; an array with no object elements does not match. The documents of MongoDB's own
  // null_query_semantics test; each filter runs on the fast equality path, through mingo (inside
  // $and), under a collation, and with indexes on a and a.b.
  const DOCS: D[] = [
    { _id: 1, name: 'a_empty_subobject', a: {} },
    { _id: 2, name: 'a_null', a: null },
    { _id: 3, name: 'a_number', a: 4 },
    { _id: 4, name: 'a_subobject_b_not_null', a: { b: 'hi' } },
    { _id: 5, name: 'a_subobject_b_null', a: { b: null } },
    { _id: 6, name: 'no_a' },
    { _id: 7, name: 'a_double_array', a: [[]] },
    { _id: 8, name: 'a_empty_array', a: [] },
    { _id: 9, name: 'a_object_array_all_b_nulls', a: [{ b: null }, { b: null }, {}] },
    { _id: 10, name: 'a_object_array_no_b_nulls', a: [{ b: 1 }, { b: 3 }, { b: 'string' }] },
    { _id: 11, name: 'a_object_array_some_b_nulls', a: [{ b: null }, { b: 3 }, { b: null }] },
    { _id: 12, name: 'a_object_array_some_b_missing', a: [{ b: 3 }, {}] },
    { _id: 13, name: 'a_value_array_all_nulls', a: [null, null] },
    { _id: 14, name: 'a_value_array_no_nulls', a: [1, 'string', 4] },
    { _id: 15, name: 'a_value_array_with_null', a: [1, 'string', null, 4] },
  ];
  const ALL = DOCS.map((d) => d._id);
  const not = (xs: number[]) => ALL.filter((x) => !xs.includes(x));
  const A_NULL = [2, 6, 13, 15];
  const AB_NULL = [1, 2, 3, 5, 6, 9, 11, 12];

  it('{ a: null } and { "a.b": null } and their $ne, $in, $nin, $gte, $lte forms', async () => {
    const c = db.collection<D>('nullpaths');
    await c.insertMany(DOCS);
    const cases: [object, number[]][] = [
      [{ a: null }, A_NULL],
      [{ a: { $ne: null } }, not(A_NULL)],
      [{ a: { $gte: null } }, A_NULL],
      [{ a: { $not: { $gte: null } } }, not(A_NULL)],
      [{ a: { $in: [null, 4] } }, [...A_NULL, 3, 14, 15].filter((x, i, xs) => xs.indexOf(x) === i)],
      [{ 'a.b': null }, AB_NULL],
      [{ 'a.b': { $eq: null } }, AB_NULL],
      [{ 'a.b': { $ne: null } }, not(AB_NULL)],
      [{ 'a.b': { $in: [null, 75] } }, AB_NULL],
      [{ 'a.b': { $nin: [null, 75] } }, not(AB_NULL)],
      [{ 'a.b': { $gte: null } }, AB_NULL],
      [{ 'a.b': { $lte: null } }, AB_NULL],
      [{ 'a.b': { $all: [null] } }, AB_NULL],
      [{ a: { $elemMatch: { $eq: null } } }, [13, 15]],
    ];
    const sorted = (xs: number[]) => [...xs].sort((x, y) => x - y);
    const check = async () => {
      for (const [filter, expected] of cases) {
        const label = JSON.stringify(filter);
        expect(await ids(c, filter), label).toEqual(sorted(expected));
        const viaMingo = { $and: [filter, { _id: { $exists: true } }] };
        expect(await ids(c, viaMingo), `$and ${label}`).toEqual(sorted(expected));
        const collated = await c
          .find(filter, { collation: { locale: 'en', strength: 2 } })
          .toArray();
        expect(sorted(collated.map((d) => d._id)), `collated ${label}`).toEqual(sorted(expected));
      }
    };
    await check();
    await c.createIndex({ a: 1 });
    await c.createIndex({ 'a.b': 1 });
    await check();
  });
});

describe('$bucket (https://www.mongodb.com/docs/manual/reference/operator/aggregation/bucket/)', () => {
  // MongoDB runs $bucket as a $group on a $switch of $gte/$lt comparisons (BSON order across
  // types), then $sort: { _id: 1 }; "$bucket only produces output documents for buckets that
  // contain at least one input document".
  async function mixed() {
    const c = db.collection<D>('bucket');
    await c.insertMany([
      { _id: 1, v: 5 },
      { _id: 2, v: 15 },
      { _id: 3, v: 'x' },
      { _id: 4, v: null },
      { _id: 5 },
      { _id: 6, v: [1] },
      { _id: 7, v: 12.5 },
      { _id: 8, v: 0 },
    ]);
    return c;
  }

  it('places mixed types by BSON order, outputs non-empty buckets only, sorted by _id with the default', async () => {
    const c = await mixed();
    const out = await c
      .aggregate([
        {
          $bucket: {
            groupBy: '$v',
            boundaries: [0, 10, 20, 30],
            default: 'other',
            output: { ids: { $push: '$_id' } },
          },
        },
      ])
      .toArray();
    // A string, null, missing and an array fall outside [0, 30) (arrays compare as arrays,
    // after numbers); [20, 30) is empty, so absent.
    expect(out).toEqual([
      { _id: 0, ids: [1, 8] },
      { _id: 10, ids: [2, 7] },
      { _id: 'other', ids: [3, 4, 5, 6] },
    ]);
    // A default below the boundaries sorts first; the default output is a count.
    const low = await c
      .aggregate([{ $bucket: { groupBy: '$v', boundaries: [0, 10, 20], default: -1 } }])
      .toArray();
    expect(low).toEqual([
      { _id: -1, count: 4 },
      { _id: 0, count: 2 },
      { _id: 10, count: 2 },
    ]);
    // String boundaries: numbers sort before strings, so they go to the default.
    const strings = await c
      .aggregate([{ $bucket: { groupBy: '$v', boundaries: ['a', 'z'], default: null } }])
      .toArray();
    expect(strings).toEqual([
      { _id: null, count: 7 },
      { _id: 'a', count: 1 },
    ]);
  });

  it('errors as MongoDB: no default for a value outside (40066), mixed or unsorted boundaries (40193, 40194), a default inside (40199)', async () => {
    const c = await mixed();
    const run = (spec: object) => c.aggregate([{ $bucket: spec }]).toArray();
    await expectCode(run({ groupBy: '$v', boundaries: [0, 10, 20] }), 40066);
    await expectCode(run({ groupBy: '$v', boundaries: ['a', 10] }), 40193);
    await expectCode(run({ groupBy: '$v', boundaries: [10, 0] }), 40194);
    await expectCode(run({ groupBy: '$v', boundaries: [0, 10], default: 5 }), 40199);
    await expectCode(run({ groupBy: '$v', boundaries: [0] }), 40192);
    await expectCode(run({ boundaries: [0, 1] }), 40198);
    await expectCode(run({ groupBy: '$v', boundaries: [0, 1], other: 1 }), 40197);
    // Numbers of different types are one type for boundaries.
    const out = await c
      .aggregate([
        { $match: { v: { $type: 'number' } } },
        { $bucket: { groupBy: '$v', boundaries: [0, 10.5, 20] } },
      ])
      .toArray();
    expect(out).toEqual([
      { _id: 0, count: 2 },
      { _id: 10.5, count: 2 },
    ]);
  });
});

describe('$setWindowFields (https://www.mongodb.com/docs/manual/reference/operator/aggregation/setWindowFields/)', () => {
  // sortBy orders as $sort does (BSON type order); documents with equal sortBy values get the
  // same $rank.
  async function mixed() {
    const c = db.collection<D>('window');
    await c.insertMany([
      { _id: 1, g: 'a', v: 5 },
      { _id: 2, g: 'b', v: 15 },
      { _id: 3, g: 'a', v: 'x' },
      { _id: 4, g: 'b', v: null },
      { _id: 5, g: 'a' },
      { _id: 6, g: 'b', v: true },
      { _id: 7, g: 'a', v: 5.0 },
      { _id: 8, g: 'b', v: { a: 1 } },
    ]);
    return c;
  }

  it('sortBy orders mixed types in BSON order: null = missing < numbers < strings < objects < booleans', async () => {
    const c = await mixed();
    const out = await c
      .aggregate([
        {
          $setWindowFields: {
            sortBy: { v: 1 },
            output: {
              rank: { $rank: {} },
              dense: { $denseRank: {} },
              n: { $documentNumber: {} },
              seen: { $push: '$_id', window: { documents: ['unbounded', 'current'] } },
            },
          },
        },
      ])
      .toArray();
    expect(out.map((d) => [d._id, d.rank, d.dense, d.n])).toEqual([
      [4, 1, 1, 1],
      [5, 1, 1, 2],
      [1, 3, 2, 3],
      [7, 3, 2, 4],
      [2, 5, 3, 5],
      [3, 6, 4, 6],
      [8, 7, 5, 7],
      [6, 8, 6, 8],
    ]);
    expect(out[3].seen).toEqual([4, 5, 1, 7]);
    // The helper field carrying the order is not in the output.
    expect(Object.keys(out[0]).sort()).toEqual(['_id', 'dense', 'g', 'n', 'rank', 'seen', 'v']);
    const desc = await c
      .aggregate([{ $setWindowFields: { sortBy: { v: -1 }, output: { r: { $rank: {} } } } }])
      .toArray();
    expect(desc.map((d) => d._id)).toEqual([6, 8, 3, 2, 1, 7, 4, 5]);
  });

  it('partitions in BSON order of their key, each sorted by sortBy', async () => {
    const c = await mixed();
    const out = await c
      .aggregate([
        {
          $setWindowFields: {
            partitionBy: '$g',
            sortBy: { v: 1 },
            output: { r: { $rank: {} }, next: { $shift: { output: '$_id', by: 1 } } },
          },
        },
      ])
      .toArray();
    expect(out.map((d) => [d._id, d.r, d.next])).toEqual([
      [5, 1, 1],
      [1, 2, 7],
      [7, 2, 3],
      [3, 4, null],
      [4, 1, 2],
      [2, 2, 8],
      [8, 3, 6],
      [6, 4, null],
    ]);
    const counts = await c
      .aggregate([{ $setWindowFields: { partitionBy: '$g', output: { c: { $sum: 1 } } } }])
      .toArray();
    // Partitions come out in key order ('a' then 'b'); order within one is unspecified.
    expect(counts.map((d) => d.g)).toEqual(['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b']);
    expect(counts.every((d) => d.c === 4)).toBe(true);
  });

  it('runs no client JavaScript: a $function in a window output is refused (115)', async () => {
    // mingo computes windows through $function bodies it builds itself; only those are called.
    const c = await mixed();
    const fn = { $function: { body: 'function () { return 1; }', args: [], lang: 'js' } };
    const err = await c
      .aggregate([{ $setWindowFields: { sortBy: { _id: 1 }, output: { f: { $push: fn } } } }])
      .toArray()
      .then(
        () => null,
        (e: { code?: number }) => e,
      );
    expect(err?.code).toBe(115);
  });

  it('range windows read numeric sortBy values; other values there are refused (115)', async () => {
    const c = await mixed();
    const range = { $push: '$_id', window: { range: [-10, 0] } };
    const out = await c
      .aggregate([
        { $match: { v: { $type: 'number' } } },
        { $setWindowFields: { sortBy: { v: 1 }, output: { w: range } } },
      ])
      .toArray();
    expect(out.map((d) => [d._id, d.w])).toEqual([
      [1, [1, 7]],
      [7, [1, 7]],
      [2, [1, 7, 2]],
    ]);
    await expectCode(
      c.aggregate([{ $setWindowFields: { sortBy: { v: 1 }, output: { w: range } } }]).toArray(),
      115,
    );
  });
});
