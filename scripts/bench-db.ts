// Benchmark of the embedded MongoDB-compatible store through mongoose.
// `npm run bench:db` prints ops/s per operation, in memory and durable (temp dir, removed after),
// on collections of 1,000 and 10,000 documents so that scaling with size is visible.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose from 'mongoose';
import { startEmbeddedMongo } from '../embedded-mongo/index';

const MS_PER_OP = 700;

const schema = new mongoose.Schema(
  {
    email: { type: String, required: true, unique: true },
    genre: { type: String, index: true },
    plays: { type: Number, default: 0 },
    title: String,
  },
  { timestamps: true },
);

async function timed(fn: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 50; i++) await fn(i); // warm-up
  const start = performance.now();
  let n = 0;
  while (performance.now() - start < MS_PER_OP) await fn(n++);
  return (n * 1000) / (performance.now() - start);
}

async function run(label: string, size: number, dataDir?: string): Promise<Record<string, number>> {
  const store = await startEmbeddedMongo({ dataDir });
  const conn = await mongoose.createConnection(store.uri, { dbName: 'bench' }).asPromise();
  const Track = conn.model('Track', schema);
  await Track.syncIndexes();
  const docs = Array.from({ length: size }, (_, i) => ({
    email: `user${i}@example.com`,
    genre: `g${i % 100}`,
    plays: i,
    title: `Track ${i}`,
  }));
  for (let i = 0; i < docs.length; i += 1000) await Track.insertMany(docs.slice(i, i + 1000));
  const ids = (await Track.find({}, { _id: 1 }).lean()).map((d) => d._id);
  const r: Record<string, number> = {};
  let extra = 0;
  r['insert (create)'] = await timed(() =>
    Track.create({ email: `extra${extra++}@example.com`, genre: 'gx', title: 'x' }),
  );
  r['findById'] = await timed((i) => Track.findById(ids[(i * 7919) % size]).lean());
  r['findOne unique field'] = await timed((i) =>
    Track.findOne({ email: `user${(i * 7919) % size}@example.com` }).lean(),
  );
  r['findOne non-unique indexed'] = await timed((i) =>
    Track.findOne({ genre: `g${i % 100}` }).lean(),
  );
  r['updateOne $inc'] = await timed((i) =>
    Track.updateOne({ _id: ids[(i * 7919) % size] }, { $inc: { plays: 1 } }),
  );
  r['countDocuments (indexed eq)'] = await timed((i) =>
    Track.countDocuments({ genre: `g${i % 100}` }),
  );
  r['find sort(plays).limit(20)'] = await timed(() =>
    Track.find({}).sort({ plays: -1 }).limit(20).lean(),
  );
  await conn.close();
  await store.stop();
  console.error(`  done: ${label}`);
  return r;
}

// Index for the sort benchmark, declared after the inline indexes.
schema.index({ plays: 1 });

const columns: [string, Record<string, number>][] = [];
console.error('embedded-mongo benchmark (through mongoose, one client, sequential awaits)');
columns.push(['memory 1k', await run('memory 1k', 1_000)]);
columns.push(['memory 10k', await run('memory 10k', 10_000)]);
const dir = mkdtempSync(join(tmpdir(), 'embedded-mongo-bench-'));
try {
  columns.push(['durable 10k', await run('durable 10k', 10_000, join(dir, 'db'))]);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const ops = Object.keys(columns[0][1]);
const w0 = Math.max(...ops.map((o) => o.length), 'operation (ops/s)'.length);
const pad = (s: string, w: number) => s + ' '.repeat(Math.max(0, w - s.length));
const lpad = (s: string, w: number) => ' '.repeat(Math.max(0, w - s.length)) + s;
const widths = columns.map(([h]) => Math.max(h.length, 8));
console.log(
  `| ${pad('operation (ops/s)', w0)} | ${columns.map(([h], i) => lpad(h, widths[i])).join(' | ')} |`,
);
console.log(`|${'-'.repeat(w0 + 2)}|${widths.map((w) => '-'.repeat(w + 1) + ':').join('|')}|`);
for (const op of ops) {
  console.log(
    `| ${pad(op, w0)} | ${columns.map(([, r], i) => lpad(Math.round(r[op]).toLocaleString('en-US'), widths[i])).join(' | ')} |`,
  );
}
process.exit(0);
