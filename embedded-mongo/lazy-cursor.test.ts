// A find's cursor produces its batches as they are read (issue 37): a stream over a large
// collection examines a batch's worth of documents per read, not every match at the first
// one (serverStatus `metrics.queryExecutor.scannedObjects`), and sees the writes made between
// its reads as MongoDB's cursors do: records inserted ahead are read, removed ones are not,
// none twice; a dropped collection or index ends it with QueryPlanKilled.
import type { Collection, Db, Document } from 'mongodb';
import { beforeEach, describe, expect, it } from 'vitest';

import { expectCode, storeForEachTest } from './test-support/driver-store';

const store = storeForEachTest('lazy');
let db: Db;
beforeEach(() => {
  db = store.db;
});

const N = 10_000;
const BASE = Date.UTC(2026, 0, 1);

async function scanned(): Promise<number> {
  const status = await store.client.db('admin').command({ serverStatus: 1 });
  return Number(status.metrics.queryExecutor.scannedObjects);
}

/** N subscriber-like documents, one a minute, with the lists' newest-first index. */
async function fill(c: Collection, n = N): Promise<void> {
  await c.createIndex({ createdAt: -1, id: -1 });
  await c.createIndex({ status: 1, id: 1 });
  for (let from = 0; from < n; from += 5000) {
    const batch: Document[] = [];
    for (let i = from; i < Math.min(n, from + 5000); i++)
      batch.push({
        id: i + 1,
        email: `fan${i}@example.com`,
        status: i % 10 === 0 ? 'unsubscribed' : 'active',
        createdAt: new Date(BASE + i * 60_000),
      });
    await c.insertMany(batch);
  }
}

const NEWEST = { createdAt: -1, id: -1 } as const;

describe('lazy find cursors', () => {
  it('examines a batch per read, not the collection, over a sorted index walk', async () => {
    const c = db.collection('subs');
    await fill(c);
    const before = await scanned();
    const cursor = c
      .find({}, { projection: { id: 1, email: 1 } })
      .sort(NEWEST)
      .batchSize(100);
    const first = await cursor.next();
    expect(first?.id).toBe(N);
    // The first batch (100) and the one read ahead: nowhere near the 20,000 a materialised
    // result would have read.
    expect((await scanned()) - before).toBeLessThanOrEqual(102);
    let n = 1;
    let previous = first!.id as number;
    for await (const doc of cursor) {
      expect(doc.id).toBe(previous - 1);
      previous = doc.id as number;
      n++;
    }
    expect(n).toBe(N);
    expect((await scanned()) - before).toBe(N);
  });

  it('examines as it goes over a filtered walk and a collection scan', async () => {
    const c = db.collection('subs');
    await fill(c);
    let before = await scanned();
    // Equality on the index's first field, a residual regex tested per document.
    const active = c.find({ status: 'active', email: /5@/ }).sort({ id: 1 }).batchSize(10);
    const firstActive = await active.next();
    expect(firstActive?.email).toBe('fan5@example.com');
    expect((await scanned()) - before).toBeLessThan(200);
    expect(await active.toArray()).toHaveLength(N / 10 - 1);
    before = await scanned();
    // No sort, no index: the collection in insertion order.
    const all = c.find({ email: /^fan1/ }).batchSize(50);
    expect((await all.next())?.email).toBe('fan1@example.com');
    expect((await scanned()) - before).toBeLessThan(1000);
    await all.close();
  });

  it('reads records inserted ahead of it and not those removed, none twice', async () => {
    const c = db.collection('subs');
    await fill(c, 5000);
    const cursor = c.find({}).sort({ createdAt: 1, id: 1 }).batchSize(100);
    const seen: number[] = [];
    for (let i = 0; i < 150; i++) seen.push((await cursor.next())!.id as number);
    // Ahead: removed before being read; behind: inserted where the cursor has passed; ahead:
    // inserted at the end (the entries move in between: chunks split, positions shift).
    await c.deleteMany({ id: { $gte: 1000, $lt: 2000 } });
    await c.insertMany(
      Array.from({ length: 3000 }, (_, i) => ({
        id: 10_001 + i,
        createdAt: new Date(BASE - (i + 1) * 60_000),
      })),
    );
    await c.insertOne({ id: 20_000, createdAt: new Date(BASE + 10 * 60 * 60_000 * 24 * 365) });
    for await (const doc of cursor) seen.push(doc.id as number);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => id >= 1000 && id < 2000)).toEqual([]);
    expect(seen.filter((id) => id > 10_000 && id < 20_000)).toEqual([]);
    expect(seen.at(-1)).toBe(20_000);
    expect(seen).toHaveLength(5000 - 1000 + 1);
  });

  it('keeps its place through a reversed walk with skip and limit', async () => {
    const c = db.collection('subs');
    await fill(c, 3000);
    const ids = (await c.find({}).sort(NEWEST).skip(1234).limit(700).batchSize(64).toArray()).map(
      (d) => d.id as number,
    );
    expect(ids).toEqual(Array.from({ length: 700 }, (_, i) => 3000 - 1234 - i));
    const active = await c
      .find({ status: 'active' })
      .sort({ id: -1 })
      .skip(5)
      .limit(30)
      .batchSize(7)
      .toArray();
    expect(active.map((d) => d.id)).toEqual(
      Array.from({ length: 3000 }, (_, i) => 3000 - i)
        .filter((id) => (id - 1) % 10 !== 0)
        .slice(5, 35),
    );
  });

  it('ends with QueryPlanKilled when its collection or index is dropped', async () => {
    const c = db.collection('subs');
    await fill(c, 2000);
    const cursor = c.find({}).sort(NEWEST).batchSize(10);
    await cursor.next();
    await c.dropIndex('createdAt_-1_id_-1');
    await c.insertOne({ id: 5000, createdAt: new Date() });
    await expectCode(cursor.toArray(), 175);
    const scan = c.find({}).batchSize(10);
    await scan.next();
    await c.drop();
    await expectCode(scan.toArray(), 175);
  });
});
