// Unit tests of engine pieces that are awkward to reach through a client.
import { Double, Long, ObjectId } from 'bson';
import { describe, expect, it } from 'vitest';

import { type Op, Store } from './engine';
import { choosePlan } from './planner';
import { ttlSweep } from './ttl';
import { compareValues, keyOf, normalize, type TypeNote, withTypes } from './values';

describe('TTL sweep', () => {
  it('deletes documents whose indexed date has expired and journals the deletes', () => {
    const store = new Store();
    const coll = store.ensureColl('app', 'sessions', []);
    coll.addIndex({ v: 2, key: { createdAt: 1 }, name: 'createdAt_1', expireAfterSeconds: 60 });
    const now = Date.now();
    coll.insert({ doc: { _id: 1, createdAt: new Date(now - 61_000) } });
    coll.insert({ doc: { _id: 2, createdAt: new Date(now - 10_000) } });
    coll.insert({ doc: { _id: 3, createdAt: 'not a date' } });
    const committed: Op[][] = [];
    const ops = ttlSweep(store, async (o) => void committed.push(o), now);
    expect(ops).toEqual([{ k: 'd', db: 'app', c: 'sessions', id: 1 }]);
    expect(committed).toHaveLength(1);
    expect([...coll.records.values()].map((r) => r.doc._id)).toEqual([2, 3]);
  });
});

describe('values', () => {
  it('gives equal keys to numerically equal values of different types', () => {
    expect(keyOf(1)).toBe(keyOf(normalize(Long.fromNumber(1))));
    expect(keyOf(normalize(new Double(2)))).toBe(keyOf(2));
    const id = new ObjectId();
    expect(keyOf(id)).toBe(keyOf(new ObjectId(id.toHexString())));
    expect(keyOf(null)).toBe(keyOf(undefined));
    expect(keyOf({ a: 1, b: 2 })).not.toBe(keyOf({ b: 2, a: 1 }));
  });

  it('restores recorded number types along nested paths without touching the original', () => {
    const notes: TypeNote[] = [];
    const doc = normalize({ a: { b: [new Double(1), 2] }, l: Long.fromNumber(5) }, notes) as Record<
      string,
      unknown
    >;
    expect(doc).toEqual({ a: { b: [1, 2] }, l: 5 });
    const typed = withTypes(doc, notes);
    expect((typed.a as { b: unknown[] }).b[0]).toBeInstanceOf(Double);
    expect(typed.l).toBeInstanceOf(Long);
    expect((doc.a as { b: unknown[] }).b[0]).toBe(1);
  });

  it('orders values by BSON type, then value', () => {
    const sorted = [
      true,
      'b',
      3,
      null,
      new Date(1),
      { a: 1 },
      [1],
      new ObjectId('0'.repeat(24)),
      'a',
      2.5,
    ].sort(compareValues);
    expect(
      sorted.map((v) =>
        v === null ? 'null' : v instanceof ObjectId ? 'oid' : v instanceof Date ? 'date' : v,
      ),
    ).toEqual(['null', 2.5, 3, 'a', 'b', { a: 1 }, [1], 'oid', true, 'date']);
  });
});

describe('query planner', () => {
  it('does not use a hidden index for equality, ranges or sorts (MongoDB: hidden indexes are not used by the planner)', () => {
    const store = new Store();
    const coll = store.ensureColl('app', 'items', []);
    for (let i = 0; i < 10; i++) coll.insert({ doc: { _id: i, n: i } });
    coll.addIndex({ v: 2, key: { n: 1 }, name: 'n_1', hidden: true });
    expect(coll.equalityIds({ n: 3 })).toBeNull();
    expect(choosePlan(coll, { n: { $gte: 5 } }, undefined, 0).kind).toBe('scan');
    expect(choosePlan(coll, {}, { n: 1 }, 1).kind).toBe('scan');
    // The same index, visible, serves all three.
    coll.addIndex({ v: 2, key: { n: 1 }, name: 'n_visible' });
    expect(coll.equalityIds({ n: 3 })).toEqual(['n3']);
    const range = choosePlan(coll, { n: { $gte: 5 } }, undefined, 0);
    expect(range.kind === 'index' && range.ix.name).toBe('n_visible');
    expect(range.size).toBe(5);
    const sorted = choosePlan(coll, {}, { n: 1 }, 1);
    expect(sorted.kind === 'index' && sorted.sorted && sorted.ix.name).toBe('n_visible');
  });
});

describe('simple equality matcher', () => {
  it('agrees with mingo on equality, $in, null, arrays and dotted paths', async () => {
    const { simpleMatcher } = await import('./commands/query');
    const { Query } = await import('mingo/query');
    const { QUERY_OPTIONS } = await import('./mingo-context');
    const oid = new ObjectId();
    const docs: Record<string, unknown>[] = [
      { a: 1 },
      { a: 1.0, b: 'x' },
      { a: [1, 2] },
      { a: [[1]] },
      { a: [] },
      { a: null },
      {},
      { a: [null] },
      { a: 'x', b: { c: 'y' } },
      { b: [{ c: 'y' }, { c: 'z' }] },
      { b: [1, 2] },
      { b: [] },
      { b: [{}] },
      { b: [[{ c: null }]] },
      { b: 5 },
      { a: oid },
      { a: new Date(5) },
      { a: true },
      { a: ['y', 'x'] },
      { a: /x/, b: 'X' },
      { a: [/x/], b: ['X', 1] },
      { a: 'xx', b: 'xylophone' },
    ];
    const filters: Record<string, unknown>[] = [
      { a: 1 },
      { a: null },
      { a: { $eq: null } },
      { a: { $in: [2, 'x'] } },
      { a: { $in: [null] } },
      { 'b.c': 'y' },
      { 'b.c': 'z' },
      { 'b.c': null },
      { a: new ObjectId(oid.toHexString()) },
      { a: new Date(5) },
      { a: true },
      { a: 1, b: 'x' },
      // Search boxes: regular expressions and $or/$and of them.
      { b: /X/i },
      { a: /^x$/ },
      { a: { $regex: 'X', $options: 'i' } },
      { $or: [{ a: /x/ }, { 'b.c': 'y' }] },
      { $or: [{ a: 1 }, { b: /x/i }], a: { $in: [1, 2] } },
      { $and: [{ a: /x/ }, { b: { $eq: 'x' } }] },
    ];
    for (const f of filters) {
      const fast = simpleMatcher(f);
      expect(fast, JSON.stringify(f)).not.toBeNull();
      const slow = new Query(f, QUERY_OPTIONS);
      for (const d of docs) {
        expect(fast!.test(d), `${JSON.stringify(f)} on ${JSON.stringify(d)}`).toBe(slow.test(d));
      }
    }
  });

  it('agrees with mingo $gte/$lte null (as { a: null }) and $all of one value (as { a: value })', async () => {
    const { simpleMatcher } = await import('./commands/query');
    const { Query } = await import('mingo/query');
    const { QUERY_OPTIONS } = await import('./mingo-context');
    const docs: Record<string, unknown>[] = [
      { a: 1 },
      { a: [1, 2] },
      { a: [[1, 2]] },
      { a: [] },
      { a: null },
      {},
      { a: [null] },
      { a: 'x' },
      { a: ['x', 'y'] },
      { a: false },
    ];
    const pairs: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ a: null }, { a: { $gte: null } }],
      [{ a: null }, { a: { $lte: null } }],
      [{ a: 1 }, { a: { $all: [1] } }],
      [{ a: 'x' }, { a: { $all: ['x'] } }],
      [{ a: null }, { a: { $all: [null] } }],
    ];
    for (const [eq, other] of pairs) {
      const fast = simpleMatcher(eq)!;
      const slow = new Query(other, QUERY_OPTIONS);
      for (const d of docs) {
        expect(slow.test(d), `${JSON.stringify(other)} on ${JSON.stringify(d)}`).toBe(fast.test(d));
      }
    }
  });
});

describe('fast update path', () => {
  it('agrees with mingo for $set, $unset and $inc on plain paths', async () => {
    const { fastUpdate } = await import('./commands/update');
    const { updateOne } = await import('mingo/updater');
    const { QUERY_OPTIONS } = await import('./mingo-context');
    const base = () => ({ _id: 1, a: 1, b: { c: 2, d: 'x' }, s: 'str', when: new Date(0) });
    const mods: Record<string, unknown>[] = [
      { $inc: { a: 2 } },
      { $inc: { 'b.c': -2, missing: 5 } },
      { $set: { 'b.d': 'y', 'n.e.w': true, when: new Date(5) } },
      { $set: { a: 1 } },
      { $unset: { 'b.c': '', nope: '' } },
      { $set: { s: 'other' }, $inc: { a: 1 }, $unset: { 'b.d': '' } },
      { $unset: { 'x.y': '' } },
    ];
    for (const m of mods) {
      const fastDoc = base();
      const changed = fastUpdate(fastDoc, m);
      expect(changed, JSON.stringify(m)).not.toBeNull();
      const slowDocs = [base()];
      const r = updateOne(slowDocs, {}, m as never, { cloneMode: 'copy' }, QUERY_OPTIONS);
      expect(fastDoc, JSON.stringify(m)).toEqual(slowDocs[0]);
      expect(changed, JSON.stringify(m)).toBe(r.modifiedCount > 0);
    }
    // Falls back for operators and paths it does not handle.
    expect(fastUpdate(base(), { $push: { arr: 1 } })).toBeNull();
    expect(fastUpdate(base(), { $set: { 'arr.0': 1 } })).toBeNull();
    expect(fastUpdate(base(), { $set: { a: 1, 'a.b': 2 } })).toBeNull();
    expect(() => fastUpdate(base(), { $inc: { s: 1 } })).toThrow(/non-numeric/);
  });
});
