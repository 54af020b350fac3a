// Durable mode: restart, compaction, locking, SIGKILL crash recovery and torn-journal recovery.
import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Long, MongoClient, type MongoServerError } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';

import { findRunningStore, startEmbeddedMongo } from './index';
import { readRecords } from './journal';

const root = mkdtempSync(join(tmpdir(), 'embedded-mongo-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const CHILD = fileURLToPath(new URL('./test-support/crash-child.ts', import.meta.url));

async function withClient<T>(uri: string, fn: (c: MongoClient) => Promise<T>): Promise<T> {
  const c = new MongoClient(uri, { serverSelectionTimeoutMS: 3000 });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.close();
  }
}

function journals(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.startsWith('journal-'))
    .sort();
}

describe('durable store', () => {
  it('persists data and indexes across restarts', async () => {
    const dir = join(root, 'restart');
    let s = await startEmbeddedMongo({ dataDir: dir });
    await withClient(s.uri, async (c) => {
      const col = c.db('app').collection('users');
      await col.createIndex({ email: 1 }, { unique: true });
      await col.insertMany(Array.from({ length: 50 }, (_, i) => ({ email: `u${i}@x`, n: i })));
      await col.updateOne({ email: 'u1@x' }, { $set: { n: 100 } });
      await col.deleteOne({ email: 'u2@x' });
    });
    await s.stop();
    await s.stop(); // idempotent
    expect(existsSync(join(dir, 'snapshot.bin'))).toBe(true);
    expect(existsSync(join(dir, 'mongod.lock'))).toBe(false);
    s = await startEmbeddedMongo({ dataDir: dir });
    await withClient(s.uri, async (c) => {
      const col = c.db('app').collection('users');
      expect(await col.countDocuments()).toBe(49);
      expect((await col.findOne({ email: 'u1@x' }))!.n).toBe(100);
      await expect(col.insertOne({ email: 'u3@x' })).rejects.toMatchObject({ code: 11000 });
    });
    await s.stop();
  });

  it('replays every kind of journaled change after a crash (copy of a live dataDir)', async () => {
    const dir = join(root, 'replay');
    const s = await startEmbeddedMongo({ dataDir: dir });
    await withClient(s.uri, async (c) => {
      const app = c.db('app');
      await app.collection('keep').createIndex({ k: 1 }, { unique: true });
      await app.collection('keep').createIndex({ gone: 1 });
      await app.collection('keep').insertMany([
        { _id: 1, k: 'a', n: Long.fromNumber(5) },
        { _id: 2, k: 'b' },
      ] as never[]);
      await app.collection('keep').dropIndex('gone_1');
      await app.collection('keep').updateOne({ _id: 1 } as never, { $inc: { n: 1 } });
      await app.collection('keep').deleteOne({ _id: 2 } as never);
      await app.collection('dropped').insertOne({ x: 1 });
      await app.collection('dropped').drop();
      await app.collection('old').insertOne({ y: 1 });
      await app.collection('old').rename('renamed');
      await c.db('other').collection('x').insertOne({ z: 1 });
      await c.db('other').dropDatabase();
    });
    // Every acknowledged write is in the journal: a copy taken now is what a crash leaves.
    const crashCopy = join(root, 'replay-copy');
    cpSync(dir, crashCopy, { recursive: true });
    await s.stop();
    expect(existsSync(join(crashCopy, 'snapshot.bin'))).toBe(false);
    const r = await startEmbeddedMongo({ dataDir: crashCopy });
    await withClient(r.uri, async (c) => {
      const app = c.db('app');
      expect((await app.listCollections().toArray()).map((x) => x.name).sort()).toEqual([
        'keep',
        'renamed',
      ]);
      expect((await app.collection('keep').listIndexes().toArray()).map((i) => i.name)).toEqual([
        '_id_',
        'k_1',
      ]);
      const kept = await app.collection('keep').find({}, { promoteValues: false }).toArray();
      expect(kept).toHaveLength(1);
      expect(kept[0].n).toBeInstanceOf(Long);
      expect(Number(kept[0].n)).toBe(6);
      expect(
        (await c.db('admin').admin().listDatabases()).databases.map((d) => d.name),
      ).not.toContain('other');
      await expect(app.collection('keep').insertOne({ k: 'a' })).rejects.toMatchObject({
        code: 11000,
      });
    });
    await r.stop();
  });

  it('compacts automatically when the journal grows', async () => {
    const dir = join(root, 'compact');
    const s = await startEmbeddedMongo({ dataDir: dir, journalCompactBytes: 64 * 1024 });
    await withClient(s.uri, async (c) => {
      const col = c.db('app').collection('blobs');
      for (let i = 0; i < 300; i++) await col.insertOne({ i, blob: 'b'.repeat(1000) });
      await new Promise((r) => setTimeout(r, 100));
      expect(existsSync(join(dir, 'snapshot.bin'))).toBe(true);
      const [current] = journals(dir).slice(-1);
      expect(Number(/\d+/.exec(current)![0])).toBeGreaterThan(1);
      expect(statSync(join(dir, current)).size).toBeLessThan(300 * 1000);
    });
    await s.stop();
    const again = await startEmbeddedMongo({ dataDir: dir });
    await withClient(again.uri, async (c) => {
      expect(await c.db('app').collection('blobs').countDocuments()).toBe(300);
    });
    await again.stop();
  });

  it('refuses a second store on the same dataDir in this process', async () => {
    const dir = join(root, 'twice');
    const s = await startEmbeddedMongo({ dataDir: dir });
    await expect(startEmbeddedMongo({ dataDir: dir })).rejects.toThrow(/findRunningStore/);
    expect(findRunningStore(dir)).toBe(s.uri);
    await s.stop();
    expect(findRunningStore(dir)).toBeNull();
  });

  it('recovers every acknowledged write after SIGKILL, and survives a torn journal', async () => {
    const dir = join(root, 'crash');
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let uri = '';
    let lastAck = -1;
    let buffered = '';
    const killed = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      child.on('error', reject);
      child.stdout!.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop()!;
        for (const line of lines) {
          if (line.startsWith('READY ')) uri = line.slice(6);
          if (line.startsWith('ACK ')) lastAck = Number(line.slice(4));
        }
        if (lastAck >= 300) resolve();
      });
      child.on('exit', () => reject(new Error('child exited early')));
    });
    // While it runs: the lock names it, and scripts can find it.
    expect(findRunningStore(dir)).toBe(uri);
    await expect(startEmbeddedMongo({ dataDir: dir })).rejects.toThrow(
      new RegExp(`pid ${child.pid}`),
    );
    child.kill('SIGKILL');
    await killed;
    // Read whatever acknowledgements were still in the pipe.
    for (const line of buffered.split('\n'))
      if (line.startsWith('ACK ')) lastAck = Number(line.slice(4));
    expect(findRunningStore(dir)).toBeNull();

    const tornDir = join(root, 'torn');
    cpSync(dir, tornDir, { recursive: true });

    // Crash recovery: the stale lock is taken over and every acknowledged write is present.
    const s = await startEmbeddedMongo({ dataDir: dir });
    await withClient(s.uri, async (c) => {
      const items = c.db('crash').collection('items');
      const docs = await items.find({}).sort({ _id: 1 }).toArray();
      expect(docs.length === lastAck + 1 || docs.length === lastAck + 2).toBe(true);
      docs.forEach((d, i) => {
        expect(d).toEqual({ _id: i, key: `k${i}`, payload: 'x'.repeat(200), n: i });
      });
      const counter = await c
        .db('crash')
        .collection('counters')
        .findOne({ _id: 'c' as never });
      // The counter update for the last acked insert is acknowledged; one more may have landed.
      expect(counter!.seq).toBe(counter!.last + 1);
      expect(counter!.last).toBeGreaterThanOrEqual(lastAck);
      expect(counter!.last).toBeLessThanOrEqual(docs.length - 1);
      // Unique index still holds.
      const e = await items.insertOne({ key: 'k0' }).catch((err: MongoServerError) => err);
      expect((e as MongoServerError).code).toBe(11000);
      expect((await items.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_', 'key_1']);
    });
    await s.stop();

    // Torn journal: cut the last record in half; everything before the tear is kept.
    const [jname] = journals(tornDir).slice(-1);
    const jpath = join(tornDir, jname);
    const buf = readFileSync(jpath);
    const { records, validEnd } = readRecords(buf);
    expect(validEnd).toBe(buf.length);
    expect(records.length).toBeGreaterThan(10);
    const lastLen = buf.length - readRecords(buf.subarray(0, buf.length - 1)).validEnd;
    const cut = buf.length - Math.floor(lastLen / 2);
    truncateSync(jpath, cut);
    const kept = readRecords(readFileSync(jpath));
    expect(kept.records.length).toBe(records.length - 1);
    const expectedIds = new Set<number>();
    let expectedCounter = 0;
    for (const r of kept.records) {
      for (const op of r.ops as { k: string; c: string; d?: { _id: unknown; seq?: unknown } }[]) {
        if (op.k === 'p' && op.c === 'items') expectedIds.add(Number(op.d!._id));
        if (op.k === 'p' && op.c === 'counters') expectedCounter = Number(op.d!.seq);
      }
    }
    const t = await startEmbeddedMongo({ dataDir: tornDir });
    expect(statSync(jpath).size).toBe(kept.validEnd);
    await withClient(t.uri, async (c) => {
      const ids = (await c.db('crash').collection('items').find({}).toArray()).map((d) =>
        Number(d._id),
      );
      // Documents from the snapshot (if one was written) plus every intact journal record.
      for (const id of expectedIds) expect(ids).toContain(id);
      expect(ids.length).toBe(Math.max(...ids) + 1);
      const counter = await c
        .db('crash')
        .collection('counters')
        .findOne({ _id: 'c' as never });
      if (expectedCounter) expect(counter!.seq).toBe(expectedCounter);
      // The store keeps working after the repair.
      await c
        .db('crash')
        .collection('items')
        .insertOne({ _id: 'after' as never, key: 'after' });
    });
    await t.stop();
    const again = await startEmbeddedMongo({ dataDir: tornDir });
    await withClient(again.uri, async (c) => {
      expect(
        await c
          .db('crash')
          .collection('items')
          .findOne({ _id: 'after' as never }),
      ).not.toBeNull();
    });
    await again.stop();
  }, 60_000);
});
