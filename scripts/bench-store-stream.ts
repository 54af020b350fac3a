import { startEmbeddedMongo } from '@night-shore/embedded-mongo';
import { type Document, MongoClient } from 'mongodb';

import { megabytes, numberOption, requireGc, settledMemory } from './bench-args';

/**
 * `npm run bench:store-stream [-- --subscribers N]`: what a stream over the whole subscriber
 * list costs the embedded store's process (issue 37: the CSV export, the newsletter's
 * recipients, the API without `limit` read a cursor in batches). Inserts N subscriber-like
 * documents (default 200,000) into an in-memory store in this process, then reads them all
 * newest first through the driver in batches of 1,000 (as `streamRecords` does), with a
 * projection, and prints the V8 heap and RSS growth over the loaded store: after the first
 * batch and at the peak (sampled after a full GC every 20 batches), with the time to the first
 * batch and for the whole stream. Needs `--expose-gc` (the npm script passes it).
 */

const N = numberOption('--subscribers', 200_000);

const gc = requireGc('bench:store-stream');
const memory = () => settledMemory(gc);
const MB = (bytes: number) => megabytes(bytes, 1);
const BASE = Date.UTC(2020, 0, 1);

async function main() {
  const store = await startEmbeddedMongo({ port: 0, host: '127.0.0.1' });
  const client = new MongoClient(store.uri, { directConnection: true });
  try {
    const c = client.db('stream').collection('subscribers');
    await c.createIndex({ createdAt: -1, id: -1 });
    const t0 = performance.now();
    for (let from = 0; from < N; from += 5000) {
      const batch: Document[] = [];
      for (let i = from; i < Math.min(N, from + 5000); i++)
        batch.push({
          id: i + 1,
          name: `Listener ${i}`,
          email: `fan${i}@example${i % 50}.com`,
          emailLower: `fan${i}@example${i % 50}.com`,
          status: i % 10 === 0 ? 'unsubscribed' : 'active',
          createdAt: new Date(BASE + i * 60_000),
          updatedAt: new Date(BASE + i * 60_000),
        });
      await c.insertMany(batch, { ordered: false });
    }
    console.log(
      `Embedded store in this process (Node ${process.version}): ${N} subscribers inserted in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const loaded = memory();
    console.log(`loaded: heap ${MB(loaded.heap)}, RSS ${MB(loaded.rss)}`);
    const started = performance.now();
    const cursor = c
      .find({}, { projection: { _id: 0, id: 1, name: 1, email: 1, status: 1, createdAt: 1 } })
      .sort({ createdAt: -1, id: -1 })
      .batchSize(1000);
    let n = 0;
    let firstMs = 0;
    let afterFirst = { heap: 0, rss: 0 };
    let peak = { heap: 0, rss: 0 };
    for await (const doc of cursor) {
      if (n === 0) {
        firstMs = performance.now() - started;
        afterFirst = memory();
        peak = afterFirst;
      }
      n++;
      if (n % 20_000 === 0 || doc.id === 1) {
        const m = memory();
        peak = { heap: Math.max(peak.heap, m.heap), rss: Math.max(peak.rss, m.rss) };
      }
    }
    const totalMs = performance.now() - started;
    console.log(
      `streamed ${n} documents: first batch ${firstMs.toFixed(0)} ms, all ${totalMs.toFixed(0)} ms`,
    );
    console.log(
      `after the first batch: heap +${MB(afterFirst.heap - loaded.heap)}, RSS +${MB(afterFirst.rss - loaded.rss)}`,
    );
    console.log(
      `peak while streaming:  heap +${MB(peak.heap - loaded.heap)}, RSS +${MB(peak.rss - loaded.rss)}`,
    );
  } finally {
    await client.close();
    await store.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
