// Index-served lists (issue 37): compound indexes walked in order for the app's paged queries,
// checked against the same queries on an unindexed twin collection (a scan and an in-memory
// sort), with ties, mixed types, $in merges, reversed walks, keyset cursors and writes between
// reads; and explain's executionStats, which shows what a page examines.
import type { Collection, Db, Document, Filter, Sort } from 'mongodb';
import { beforeEach, describe, expect, it } from 'vitest';

import { storeForEachTest } from './test-support/driver-store';

const store = storeForEachTest('plans');
let db: Db;
beforeEach(() => {
  db = store.db;
});

const LIST_INDEXES: Document[] = [
  { createdAt: -1, id: -1 },
  { category: 1, createdAt: -1, id: -1 },
  { featured: 1, createdAt: -1, id: -1 },
  { type: 1, createdAt: -1, id: -1 },
  { status: 1, id: 1 },
  { date: 1, time: 1, id: 1 },
];

const BASE = Date.UTC(2026, 0, 1);

/** A deterministic pseudo-random generator (tests must not depend on luck). */
function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

function makeDoc(id: number, r: () => number): Document {
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)];
  const doc: Document = {
    id,
    // Few distinct dates: many ties, settled by id.
    createdAt: new Date(BASE + Math.floor(r() * 40) * 60_000),
    category: pick(['NEWS', 'EVENT', 'RELEASE']),
    featured: r() < 0.2,
    type: pick(['track', 'mix', 'live']),
    status: pick(['active', 'active', 'unsubscribed']),
    name: `${pick(['Ann', 'Bob', 'Cleo', 'Dan'])} ${pick(['Shore', 'Night', 'Wave'])}`,
    email: `${pick(['ann', 'bob', 'cleo'])}${id}@example.com`,
    date: `2026-11-${String(20 + Math.floor(r() * 10)).padStart(2, '0')}`,
    time: pick(['19:00', '21:00', '23:30']),
  };
  // Mixed types on the sort field, in BSON order on both sides.
  if (id % 97 === 0) delete doc.createdAt;
  else if (id % 89 === 0) doc.createdAt = null;
  else if (id % 83 === 0) doc.createdAt = `not a date ${id}`;
  if (id % 71 === 0) delete doc.category;
  return doc;
}

async function twins(n: number): Promise<[Collection, Collection]> {
  const indexed = db.collection('indexed');
  const plain = db.collection('plain');
  for (const key of LIST_INDEXES) await indexed.createIndex(key);
  const r = rng(n);
  const ids = Array.from({ length: n }, (_, i) => i + 1).sort(() => r() - 0.5);
  const docs = ids.map((id) => makeDoc(id, r));
  await indexed.insertMany(docs.map((d) => ({ ...d })));
  await plain.insertMany(docs.map((d) => ({ ...d })));
  return [indexed, plain];
}

type Shape = { filter: Filter<Document>; sort: Sort };

const D = new Date(BASE + 20 * 60_000);
const SHAPES: Shape[] = [
  { filter: {}, sort: { createdAt: -1, id: -1 } },
  { filter: {}, sort: { createdAt: 1, id: 1 } }, // reversed walk
  { filter: {}, sort: { createdAt: -1 } }, // a prefix of the index
  { filter: { category: 'NEWS' }, sort: { createdAt: -1, id: -1 } },
  { filter: { category: null }, sort: { createdAt: -1, id: -1 } },
  { filter: { category: 'EVENT' }, sort: { category: 1, createdAt: 1, id: 1 } },
  { filter: { featured: true }, sort: { createdAt: -1, id: -1 } },
  { filter: { type: { $in: ['mix', 'live'] } }, sort: { createdAt: -1, id: -1 } },
  { filter: { type: { $in: ['live', 'track'] } }, sort: { createdAt: 1, id: 1 } },
  { filter: { status: 'active' }, sort: { id: 1 } },
  { filter: { status: 'active' }, sort: { id: -1 } },
  { filter: { date: { $gte: '2026-11-25' } }, sort: { date: 1, time: 1, id: 1 } },
  { filter: { date: { $lt: '2026-11-25' } }, sort: { date: -1, time: -1, id: -1 } },
  { filter: { createdAt: { $gt: D } }, sort: { createdAt: -1, id: -1 } },
  { filter: { createdAt: { $lte: D }, category: 'NEWS' }, sort: { createdAt: -1, id: -1 } },
  {
    filter: { $or: [{ name: /cleo/i }, { email: /BOB1/i }] },
    sort: { createdAt: -1, id: -1 },
  },
  { filter: { category: 'RELEASE', $or: [{ name: /wave/i }] }, sort: { createdAt: -1, id: -1 } },
  { filter: { $and: [{ featured: false }, { type: 'mix' }] }, sort: { createdAt: -1, id: -1 } },
];

async function page(c: Collection, s: Shape, skip: number, limit: number): Promise<unknown[]> {
  const docs = await c.find(s.filter).sort(s.sort).skip(skip).limit(limit).toArray();
  // A sort that does not end with the unique id leaves ties in no defined order: compare keys.
  const keys = Object.keys(s.sort as Record<string, unknown>);
  if (keys[keys.length - 1] !== 'id') return docs.map((d) => keys.map((k) => d[k] ?? null));
  return docs.map(({ _id, ...rest }) => rest);
}

async function expectSameAnswers(indexed: Collection, plain: Collection): Promise<void> {
  for (const s of SHAPES) {
    const what = JSON.stringify(s);
    const total = await plain.countDocuments(s.filter);
    expect(await indexed.countDocuments(s.filter), what).toBe(total);
    for (const [skip, limit] of [
      [0, 20],
      [20, 20],
      [Math.max(0, total - 7), 20],
      [0, 0],
    ]) {
      expect(await page(indexed, s, skip, limit), `${what} ${skip}/${limit}`).toEqual(
        await page(plain, s, skip, limit),
      );
    }
  }
  expect(await indexed.estimatedDocumentCount()).toBe(await plain.estimatedDocumentCount());
}

/** The app's keyset filter (app/models/paging.server.ts afterFilter) for { createdAt: -1, id: -1 }. */
function after(last: Document): Filter<Document> {
  return {
    createdAt: { $lte: last.createdAt },
    $or: [
      { createdAt: { $lt: last.createdAt } },
      { createdAt: last.createdAt, id: { $lt: last.id } },
    ],
  };
}

async function keysetWalk(c: Collection, base: Filter<Document>, limit: number): Promise<number[]> {
  const seen: number[] = [];
  const sort = { createdAt: -1, id: -1 } as const;
  let filter: Filter<Document> = base;
  for (;;) {
    const found = await c
      .find(filter)
      .sort(sort)
      .limit(limit + 1)
      .toArray();
    const items = found.slice(0, limit);
    seen.push(...items.map((d) => d.id as number));
    if (found.length <= limit) return seen;
    const cursor = after(items[items.length - 1]);
    filter = Object.keys(base).length ? { $and: [base, cursor] } : cursor;
  }
}

async function explainStats(c: Collection, s: Shape, skip: number, limit: number) {
  const e = await c.find(s.filter).sort(s.sort).skip(skip).limit(limit).explain('executionStats');
  return {
    docs: e.executionStats.totalDocsExamined as number,
    keys: e.executionStats.totalKeysExamined as number,
    returned: e.executionStats.nReturned as number,
    plan: e.queryPlanner.winningPlan as Document,
  };
}

describe('index-served lists', () => {
  it('answer every list shape as a scan and an in-memory sort do, before and after writes', async () => {
    const [indexed, plain] = await twins(700);
    await expectSameAnswers(indexed, plain);
    // Writes between reads: inserts (new and old dates), updates of sort and filter fields,
    // deletes; the indexes' sorted entries follow.
    const r = rng(7);
    const more = Array.from({ length: 150 }, (_, i) => makeDoc(1000 + i, r));
    await indexed.insertMany(more.map((d) => ({ ...d })));
    await plain.insertMany(more.map((d) => ({ ...d })));
    for (const c of [indexed, plain]) {
      await c.updateMany({ id: { $lt: 60 } }, { $set: { createdAt: new Date(BASE + 5 * 60_000) } });
      await c.updateMany({ type: 'mix', id: { $gt: 600 } }, { $set: { category: 'NEWS' } });
      await c.updateOne(
        { id: 5 },
        { $set: { createdAt: new Date(BASE + 39 * 60_000), featured: true } },
      );
      await c.deleteMany({ id: { $in: [1, 2, 3, 100, 200, 300, 1005] } });
      await c.deleteMany({ status: 'unsubscribed', id: { $gt: 650 } });
    }
    await expectSameAnswers(indexed, plain);
  });

  it('visit every record exactly once with keyset cursors, plain and inside $and', async () => {
    const [indexed, plain] = await twins(500);
    for (const base of [{}, { category: 'NEWS' }, { type: { $in: ['mix', 'track'] } }]) {
      const all = await plain.find(base).sort({ createdAt: -1, id: -1 }).toArray();
      const walked = await keysetWalk(indexed, base, 17);
      // Records whose createdAt is not a date drop out of the cursor's range, as on MongoDB.
      const dated = all.filter((d) => d.createdAt instanceof Date).map((d) => d.id);
      expect(walked.slice(0, dated.length)).toEqual(dated);
    }
  });

  it('examine about one page of documents per page of a large collection', async () => {
    const [indexed] = await twins(20_000);
    const newest: Shape = { filter: {}, sort: { createdAt: -1, id: -1 } };
    const first = await explainStats(indexed, newest, 0, 20);
    expect(first).toMatchObject({ docs: 20, keys: 20, returned: 20 });
    expect(JSON.stringify(first.plan)).toContain('"indexName":"createdAt_-1_id_-1"');
    expect(JSON.stringify(first.plan)).not.toContain('SORT');
    // Page 100: the skip jumps over the index entries (exact bounds), reading 20 documents.
    expect(await explainStats(indexed, newest, 99 * 20, 20)).toMatchObject({
      docs: 20,
      returned: 20,
    });
    // A keyset page: the range bounds the walk; the $or is tested on the entries walked.
    const [last] = await indexed.find({}).sort(newest.sort).skip(5000).limit(1).toArray();
    const keyset = await explainStats(indexed, { filter: after(last), sort: newest.sort }, 0, 21);
    expect(keyset.returned).toBe(21);
    expect(keyset.docs).toBeLessThan(21 + 20_000 / 40); // + at most the ties of one date
    // Equality prefix, $in merge, reversed walk, range on the first sort field.
    for (const s of SHAPES.slice(3, 15)) {
      const stats = await explainStats(indexed, s, 0, 20);
      expect(stats.docs, JSON.stringify(s)).toBeLessThanOrEqual(20);
      expect(JSON.stringify(stats.plan), JSON.stringify(s)).not.toContain('SORT');
    }
    // A regex search walks the index in order and stops after the page.
    const search = await explainStats(indexed, SHAPES[15], 0, 50);
    expect(search.returned).toBe(50);
    expect(search.docs).toBeLessThan(5000);
  });

  it('count from the index bounds or the collection size, not from documents', async () => {
    const [indexed, plain] = await twins(3000);
    const countExplain = async (filter: Document) => {
      const e = await db.command({
        explain: {
          aggregate: 'indexed',
          pipeline: [{ $match: filter }, { $group: { _id: 1, n: { $sum: 1 } } }],
          cursor: {},
        },
        verbosity: 'executionStats',
      });
      return e.executionStats.totalDocsExamined as number;
    };
    expect(await countExplain({ category: 'NEWS' })).toBe(0);
    expect(await countExplain({ type: { $in: ['mix', 'live'] } })).toBe(0);
    expect(await countExplain({ date: { $gte: '2026-11-25' } })).toBe(0);
    expect(await countExplain({ $or: [{ name: /ann/i }, { email: /ann/i }] })).toBe(3000);
    const fast = await db.command({ explain: { count: 'indexed' }, verbosity: 'executionStats' });
    expect(fast.executionStats.totalDocsExamined).toBe(0);
    expect(fast.queryPlanner.winningPlan.stage).toBe('RECORD_STORE_FAST_COUNT');
    for (const filter of [
      { category: 'NEWS' },
      { status: 'active' },
      { featured: true, type: 'mix' },
    ]) {
      expect(await indexed.countDocuments(filter)).toBe(await plain.countDocuments(filter));
      expect(await indexed.countDocuments(filter, { skip: 10, limit: 100 })).toBe(
        await plain.countDocuments(filter, { skip: 10, limit: 100 }),
      );
    }
  });

  it('projects top-level fields and answers distinct as before', async () => {
    const [indexed, plain] = await twins(300);
    const opts = {
      projection: { id: 1, email: 1, _id: 0 },
      sort: { createdAt: -1, id: -1 },
    } as const;
    const got = await indexed.find({ category: 'NEWS' }, opts).limit(30).toArray();
    expect(got).toEqual(await plain.find({ category: 'NEWS' }, opts).limit(30).toArray());
    expect(Object.keys(got[0])).toEqual(['id', 'email']);
    const withId = await indexed
      .find({}, { projection: { email: 1 } })
      .limit(1)
      .toArray();
    expect(Object.keys(withId[0])).toEqual(['_id', 'email']);
    const d1 = (await indexed.distinct('type', { featured: true })).sort();
    expect(d1).toEqual((await plain.distinct('type', { featured: true })).sort());
  });
});
