// Two stores in one process share nothing: each has its own cursors (and idle-cursor clock) and
// its own write hook, which names the collections each command changed.
import { type Db, Long, MongoClient, MongoServerError } from 'mongodb';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { type EmbeddedMongo, startEmbeddedMongo } from './index';

const MINUTE = 60_000;
const running: { server: EmbeddedMongo; client: MongoClient }[] = [];

async function open(onWrite?: (collections: string[]) => void): Promise<Db> {
  const server = await startEmbeddedMongo({ onWrite });
  const client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 3000 });
  await client.connect();
  running.push({ server, client });
  return client.db('two');
}

afterEach(async () => {
  vi.useRealTimers();
  for (const { server, client } of running.splice(0)) {
    await client.close();
    await server.stop();
  }
});

/** Opens a cursor over `c` that still holds documents after the first batch. */
async function openCursor(db: Db): Promise<Long> {
  const reply = await db.command({ find: 'c', batchSize: 1 });
  expect(reply.cursor.id).not.toEqual(Long.ZERO);
  return reply.cursor.id as Long;
}

describe('two stores in one process', () => {
  it('sweep their idle cursors each on its own clock', async () => {
    // Only Date is faked: sockets and timers run as usual.
    vi.useFakeTimers({ toFake: ['Date'] });
    const t0 = new Date('2030-01-01T00:00:00Z').getTime();
    vi.setSystemTime(t0);
    const a = await open();
    const b = await open();
    for (const db of [a, b]) await db.collection('c').insertMany([{ n: 1 }, { n: 2 }, { n: 3 }]);

    const idle = await openCursor(a);
    // B opens a cursor after A's has been idle for 11 minutes: B sweeps its own cursors only.
    vi.setSystemTime(t0 + 11 * MINUTE);
    const fresh = await openCursor(b);
    // Half a minute later A opens a cursor. A has not swept for 11.5 minutes, so it sweeps now
    // and closes its idle cursor. (With one sweep clock for the whole process, B's sweep a moment
    // ago would have skipped this one and left the idle cursor open.)
    vi.setSystemTime(t0 + 11.5 * MINUTE);
    await openCursor(a);
    const gone = await a.command({ getMore: idle, collection: 'c' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(gone).toBeInstanceOf(MongoServerError);
    expect((gone as MongoServerError).code).toBe(43);
    // B's cursor is untouched by A's sweep: it returns the rest of its result.
    const more = await b.command({ getMore: fresh, collection: 'c' });
    expect(more.cursor.nextBatch).toHaveLength(2);
  });

  it('report writes to their own hook, by collection name', async () => {
    const seenA: string[][] = [];
    const seenB: string[][] = [];
    const a = await open((names) => seenA.push(names));
    const b = await open((names) => seenB.push(names));

    await a.collection('tracks').insertOne({ title: 'x' });
    await a.collection('tracks').find({}).toArray(); // reads report nothing
    expect(seenA).toEqual([['tracks']]);
    expect(seenB).toEqual([]);

    await b.collection('posts').insertOne({ title: 'y' });
    await b.collection('posts').updateOne({ title: 'y' }, { $set: { title: 'z' } });
    await b.collection('posts').updateOne({ title: 'nothing' }, { $set: { title: 'z' } });
    await b.collection('posts').rename('news');
    await b.collection('shows').insertOne({ at: 1 });
    await b.dropDatabase();
    expect(seenB).toEqual([['posts'], ['posts'], ['news', 'posts'], ['shows'], ['news', 'shows']]);
    expect(seenA).toEqual([['tracks']]);
  });
});
