import { startEmbeddedMongo } from '@night-shore/embedded-mongo';
import { calculateObjectSize } from 'bson';
import { MongoClient, ObjectId } from 'mongodb';

import { numberOption, requireGc, settledMemory } from './bench-args';

/**
 * `npm run bench:store-memory [-- --docs N]`: what a document costs the embedded store's memory
 * (decision 040). The store keeps every document of every collection in memory, decoded, with
 * its indexes: its memory grows with the data, not with the traffic.
 *
 * For three shapes of document (a counter like the statistics' and rate limits', a track-sized
 * document with a tracklist, a GridFS chunk of 255 KiB), N documents (default 20,000; 400
 * chunks) are inserted into an in-memory store in this process through the driver, with the
 * indexes the site gives such a collection; the V8 heap (after a full garbage collection) and
 * the process's resident memory are read before and after. Prints bytes per document, next to
 * the document's BSON size. Needs `--expose-gc` (the npm script passes it).
 */

const N = numberOption('--docs', 20_000);

const gc = requireGc('bench:store-memory');
const settled = () => settledMemory(gc);

const counter = (i: number) => ({
  _id: new ObjectId(),
  key: `view:/music/track-${i % 500}:2026-11-${String((i % 28) + 1).padStart(2, '0')}`,
  day: new Date(Date.UTC(2026, 10, (i % 28) + 1)),
  path: `/music/track-${i % 500}`,
  count: i % 97,
});

const track = (i: number) => ({
  _id: i + 1,
  title: `Night drive ${i}`,
  slug: `night-drive-${i}`,
  artist: 'Night Shore',
  type: i % 2 ? 'mix' : 'track',
  description:
    'A late set from the boardwalk: deep house into electro, recorded live at the Stone Pony. '.repeat(
      3,
    ),
  audioFile: `/uploads/audio/${'a'.repeat(32)}.mp3`,
  coverImage: `/uploads/images/${'b'.repeat(32)}.jpg`,
  durationSeconds: 3600 + i,
  featured: false,
  published: true,
  tags: ['house', 'electro', 'live'],
  tracklist: Array.from({ length: 12 }, (_, n) => ({
    at: n * 300,
    artist: `Artist ${n}`,
    title: `Title ${n}`,
  })),
  createdAt: new Date(),
  updatedAt: new Date(),
});

const chunk = (i: number) => ({
  _id: new ObjectId(),
  files_id: new ObjectId(),
  n: i,
  data: Buffer.alloc(255 * 1024, i % 251),
});

type Shape = {
  name: string;
  count: number;
  make: (i: number) => Record<string, unknown>;
  indexes: Record<string, 1>[];
};

const shapes: Shape[] = [
  { name: 'counter (statistics)', count: N, make: counter, indexes: [{ key: 1 }, { day: 1 }] },
  { name: 'track', count: N, make: track, indexes: [{ slug: 1 }, { createdAt: 1 }] },
  {
    name: 'GridFS chunk (255 KiB)',
    count: Math.max(1, Math.round(N / 50)),
    make: chunk,
    indexes: [{ files_id: 1, n: 1 }],
  },
];

async function main() {
  const store = await startEmbeddedMongo({ port: 0, host: '127.0.0.1' });
  const client = new MongoClient(store.uri, { directConnection: true });
  try {
    const db = client.db('memory');
    console.log(`Embedded store, in memory, in this process (Node ${process.version}).`);
    console.log(
      `${'document'.padEnd(24)} ${'count'.padStart(7)} ${'BSON B'.padStart(8)} ${'heap B/doc'.padStart(11)} ${'+external'.padStart(10)} ${'RSS B/doc'.padStart(10)}`,
    );
    for (const shape of shapes) {
      const collection = db.collection(shape.name.split(' ')[0]!);
      for (const index of shape.indexes) await collection.createIndex(index);
      const bson = calculateObjectSize(shape.make(0));
      const before = settled();
      for (let from = 0; from < shape.count; from += 100) {
        const batch = [];
        for (let i = from; i < Math.min(shape.count, from + 100); i++) batch.push(shape.make(i));
        await collection.insertMany(batch, { ordered: false });
      }
      // A first sorted query builds the sorted view of a single-field index, as pages do.
      const [field, more] = Object.keys(shape.indexes[0]!);
      if (!more) await collection.find({}).sort(field!, 1).limit(1).toArray();
      const after = settled();
      const per = (bytes: number) => Math.round(bytes / shape.count);
      console.log(
        `${shape.name.padEnd(24)} ${String(shape.count).padStart(7)} ${String(bson).padStart(8)} ${String(per(after.heap - before.heap)).padStart(11)} ${String(per(after.external - before.external)).padStart(10)} ${String(per(after.rss - before.rss)).padStart(10)}`,
      );
    }
  } finally {
    await client.close();
    await store.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
