import { startEmbeddedMongo } from '@night-shore/embedded-mongo';
import { type Collection, type Document, type Filter, MongoClient, type Sort } from 'mongodb';

import { megabytes, numberOption, requireGc, settledMemory } from './bench-args';

/**
 * `npm run bench:store-lists [-- --subscribers N --tracks M]`: the embedded store's paged lists
 * at the size of issue 37's 10× catalogue (embedded-mongo/README.md, "Indexes and plans").
 *
 * Inserts N subscriber-like documents (default 500,000) and M track-like ones (default 20,000)
 * into an in-memory store in this process, through the driver, with the app's indexes; prints
 * the insert time, the store's memory (V8 heap after a full GC, and RSS), then for each paged
 * query shape the first call (which builds an index's sorted entries on first use) and the
 * median of 7 more, with the documents examined (explain), and the counts. Needs
 * `--expose-gc` (the npm script passes it).
 */

const SUBSCRIBERS = numberOption('--subscribers', 500_000);
const TRACKS = numberOption('--tracks', 20_000);

const gc = requireGc('bench:store-lists');
const memory = () => settledMemory(gc);
const MB = (bytes: number) => megabytes(bytes);
const BASE = Date.UTC(2020, 0, 1);
const WORDS = ['shore', 'night', 'wave', 'deep', 'boardwalk', 'pony', 'tide', 'neon'];

const subscriber = (i: number) => ({
  id: i + 1,
  name: `${WORDS[i % 8]} ${WORDS[(i * 7) % 8]} ${i}`,
  email: `fan${i}@example${i % 50}.com`,
  emailLower: `fan${i}@example${i % 50}.com`,
  status: i % 10 === 0 ? 'unsubscribed' : 'active',
  // About one a minute over the years, in insertion order.
  createdAt: new Date(BASE + i * 60_000),
  updatedAt: new Date(BASE + i * 60_000),
});

const track = (i: number) => ({
  id: i + 1,
  title: `Night drive ${i}`,
  slug: `night-drive-${i}`,
  artist: 'Night Shore',
  type: ['track', 'mix', 'live'][i % 3],
  description: 'A late set from the boardwalk: deep house into electro. '.repeat(4),
  audioFile: `/uploads/audio/${i}.mp3`,
  durationSeconds: 3600 + i,
  featured: i % 25 === 0,
  published: true,
  tags: ['house', 'electro'],
  tracklist: Array.from({ length: 8 }, (_, n) => ({ at: n * 300, title: `Title ${n}` })),
  createdAt: new Date(BASE + i * 3_600_000),
  updatedAt: new Date(BASE + i * 3_600_000),
});

async function fill(c: Collection, n: number, make: (i: number) => Document): Promise<number> {
  const started = performance.now();
  for (let from = 0; from < n; from += 5000) {
    const batch: Document[] = [];
    for (let i = from; i < Math.min(n, from + 5000); i++) batch.push(make(i));
    await c.insertMany(batch, { ordered: false });
  }
  return performance.now() - started;
}

const NEWEST = { createdAt: -1, id: -1 } as const;

function after(last: Document): Filter<Document> {
  return {
    createdAt: { $lte: last.createdAt },
    $or: [
      { createdAt: { $lt: last.createdAt } },
      { createdAt: last.createdAt, id: { $lt: last.id } },
    ],
  };
}

async function timeIt(fn: () => Promise<unknown>): Promise<[number, number]> {
  let t = performance.now();
  await fn();
  const first = performance.now() - t;
  const runs: number[] = [];
  for (let i = 0; i < 7; i++) {
    t = performance.now();
    await fn();
    runs.push(performance.now() - t);
  }
  runs.sort((a, b) => a - b);
  return [first, runs[3]];
}

const ms = (x: number) => `${x < 10 ? x.toFixed(2) : x.toFixed(0)} ms`;

async function row(label: string, fn: () => Promise<unknown>, examined?: () => Promise<number>) {
  const [first, median] = await timeIt(fn);
  const docs = examined ? String(await examined()) : '';
  console.log(
    `${label.padEnd(58)} ${ms(first).padStart(10)} ${ms(median).padStart(10)} ${docs.padStart(9)}`,
  );
}

async function pageRow(
  label: string,
  c: Collection,
  filter: Filter<Document>,
  sort: Sort,
  skip: number,
  limit: number,
) {
  const q = () => c.find(filter).sort(sort).skip(skip).limit(limit).toArray();
  const examined = async () =>
    (await c.find(filter).sort(sort).skip(skip).limit(limit).explain('executionStats'))
      .executionStats.totalDocsExamined as number;
  await row(label, q, examined);
}

async function countRow(label: string, c: Collection, filter: Filter<Document>) {
  await row(label, () => c.countDocuments(filter));
}

async function main() {
  const store = await startEmbeddedMongo({ port: 0, host: '127.0.0.1' });
  const client = new MongoClient(store.uri, { directConnection: true });
  try {
    const db = client.db('lists');
    const subscribers = db.collection('subscribers');
    const tracks = db.collection('tracks');
    await subscribers.createIndex({ emailLower: 1 }, { unique: true });
    await subscribers.createIndex({ id: 1 }, { unique: true });
    await subscribers.createIndex(NEWEST);
    await subscribers.createIndex({ status: 1, id: 1 });
    await tracks.createIndex({ id: 1 }, { unique: true });
    await tracks.createIndex({ slug: 1 }, { unique: true });
    await tracks.createIndex(NEWEST);
    await tracks.createIndex({ type: 1, ...NEWEST });
    await tracks.createIndex({ featured: 1, ...NEWEST });
    const empty = memory();
    console.log(`Embedded store, in memory, in this process (Node ${process.version}).`);
    const tS = await fill(subscribers, SUBSCRIBERS, subscriber);
    const tT = await fill(tracks, TRACKS, track);
    console.log(
      `insert ${SUBSCRIBERS} subscribers: ${(tS / 1000).toFixed(1)} s; ${TRACKS} tracks: ${(tT / 1000).toFixed(1)} s`,
    );
    const loaded = memory();
    console.log(
      `memory with the catalogue: heap +${MB(loaded.heap - empty.heap)}, RSS +${MB(loaded.rss - empty.rss)} (RSS ${MB(loaded.rss)})`,
    );
    console.log(
      `${'query'.padEnd(58)} ${'first'.padStart(10)} ${'median'.padStart(10)} ${'examined'.padStart(9)}`,
    );
    const s = subscribers;
    await pageRow('subscribers newest, page 1 (20)', s, {}, NEWEST, 0, 20);
    await pageRow('subscribers newest, page 100', s, {}, NEWEST, 99 * 20, 20);
    await pageRow('subscribers newest, page 20,000 (skip 399,980)', s, {}, NEWEST, 399_980, 20);
    const [mid] = await s
      .find({})
      .sort(NEWEST)
      .skip(SUBSCRIBERS / 2)
      .limit(1)
      .toArray();
    await pageRow(
      'subscribers keyset page (after the middle, limit 21)',
      s,
      after(mid!),
      NEWEST,
      0,
      21,
    );
    await pageRow(
      'subscribers {status: active} by id, page 1',
      s,
      { status: 'active' },
      { id: 1 },
      0,
      20,
    );
    await pageRow(
      'subscribers {status: active} by id, page 100',
      s,
      { status: 'active' },
      { id: 1 },
      1980,
      20,
    );
    const common = { $or: [{ name: /wave/i }, { email: /wave/i }] };
    const rare = { $or: [{ name: /ne 4999/i }, { email: /fan49999@/i }] };
    await pageRow('subscribers search common term, 50 newest', s, common, NEWEST, 0, 50);
    await pageRow('subscribers search rare term, 50 newest', s, rare, NEWEST, 0, 50);
    await row('subscribers estimatedDocumentCount', () => s.estimatedDocumentCount());
    await countRow('subscribers countDocuments({})', s, {});
    await countRow('subscribers countDocuments({status: active})', s, { status: 'active' });
    await countRow('subscribers countDocuments(search common term)', s, common);
    await countRow('subscribers countDocuments(search rare term)', s, rare);
    const t = tracks;
    await pageRow('tracks newest, page 1', t, {}, NEWEST, 0, 20);
    await pageRow('tracks newest, page 100', t, {}, NEWEST, 1980, 20);
    await pageRow(
      'tracks {type: {$in: [mix, live]}} newest, page 1',
      t,
      { type: { $in: ['mix', 'live'] } },
      NEWEST,
      0,
      20,
    );
    await pageRow(
      'tracks {type: {$in: [mix, live]}} newest, page 100',
      t,
      { type: { $in: ['mix', 'live'] } },
      NEWEST,
      1980,
      20,
    );
    await pageRow('tracks {featured: true} newest, page 1', t, { featured: true }, NEWEST, 0, 20);
    const [tmid] = await t
      .find({})
      .sort(NEWEST)
      .skip(TRACKS / 2)
      .limit(1)
      .toArray();
    await pageRow(
      'tracks {type: mix} keyset page in $and',
      t,
      { $and: [{ type: 'mix' }, after(tmid!)] },
      NEWEST,
      0,
      21,
    );
    await countRow('tracks countDocuments({type: mix})', t, { type: 'mix' });
    await pageRow(
      'tracks reversed walk (oldest first), page 1',
      t,
      {},
      { createdAt: 1, id: 1 },
      0,
      20,
    );
    const built = memory();
    console.log(
      `memory after the sorted index entries are built: heap +${MB(built.heap - empty.heap)}, RSS +${MB(built.rss - empty.rss)} (RSS ${MB(built.rss)})`,
    );
    const extra = Math.round(SUBSCRIBERS / 50);
    const tX = await fill(s, extra, (i) => subscriber(SUBSCRIBERS + i));
    console.log(
      `insert ${extra} more subscribers with the sorted entries maintained: ${(tX / 1000).toFixed(2)} s (${Math.round((extra * 1000) / tX)}/s)`,
    );
    await pageRow('subscribers newest, page 1, after those inserts', s, {}, NEWEST, 0, 20);
  } finally {
    await client.close();
    await store.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
