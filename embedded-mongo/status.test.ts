// serverStatus: the counters a benchmark reads, in mongod's shape (opcounters, metrics.commands).
import { type Db } from 'mongodb';
import { beforeEach, describe, expect, it } from 'vitest';

import { storeForEachTest } from './test-support/driver-store';

const store = storeForEachTest('status');
let db: Db;
beforeEach(() => {
  ({ db } = store);
});

// The driver answers int64 counters as numbers (promoteLongs).
type Status = {
  opcounters: Record<string, number>;
  metrics: { commands: Record<string, { total: number }> };
  mem: { resident: number };
};

const status = async () => (await db.admin().command({ serverStatus: 1 })) as unknown as Status;

describe('serverStatus', () => {
  it('counts documents inserted, statements, finds, getMores and other commands', async () => {
    const before = await status();
    const c = db.collection('counted');
    await c.insertMany([{ x: 1 }, { x: 2 }, { x: 3 }]);
    await c.updateOne({ x: 1 }, { $set: { y: 1 } });
    await c.deleteMany({ x: 3 });
    await c.find({}, { batchSize: 1 }).toArray();
    await c.countDocuments();
    const after = await status();
    const delta = (k: string) => after.opcounters[k]! - before.opcounters[k]!;
    expect(delta('insert')).toBe(3);
    expect(delta('update')).toBe(1);
    expect(delta('delete')).toBe(1);
    expect(delta('query')).toBe(1);
    expect(delta('getmore')).toBeGreaterThanOrEqual(1);
    // countDocuments is an aggregate; the second serverStatus counts as a command too.
    expect(delta('command')).toBeGreaterThanOrEqual(2);
    const commands = (s: Status, name: string) => s.metrics.commands[name]?.total ?? 0;
    expect(commands(after, 'insert') - commands(before, 'insert')).toBe(1);
    expect(commands(after, 'aggregate') - commands(before, 'aggregate')).toBe(1);
    expect(after.mem.resident).toBeGreaterThan(0);
  });

  it('answers top: per namespace, the commands that named a collection', async () => {
    type Top = { totals: Record<string, { total: { count: number }; queries: { count: number } }> };
    const c = db.collection('topped');
    await c.insertOne({ x: 1 });
    await c.find({}).toArray();
    await c.find({ x: 1 }).toArray();
    const { totals } = (await db.admin().command({ top: 1 })) as unknown as Top;
    const ns = totals[`${db.databaseName}.topped`]!;
    expect(ns.total.count).toBe(3);
    expect(ns.queries.count).toBe(2);
    await expect(db.command({ top: 1 })).rejects.toMatchObject({ code: 13 });
  });
});
