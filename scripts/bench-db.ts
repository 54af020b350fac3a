// Benchmark of the embedded MongoDB-compatible store through mongoose.
// `npm run bench:db` prints ops/s per operation, in memory and durable (temp dir, removed after),
// on collections of 1,000 and 10,000 documents so that scaling with size is visible.
import {
  closeSync,
  constants as fsConstants,
  fdatasyncSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

import { startEmbeddedMongo } from '@night-shore/embedded-mongo';
import mongoose from 'mongoose';

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

interface Result {
  /** Wall-clock operations per second (one client awaiting each call). */
  wall: number;
  /** Operations per CPU-second of this process (client + server): the one-core rate. */
  cpu: number;
}

async function timed(fn: (i: number) => Promise<unknown>, concurrency = 1): Promise<Result> {
  for (let i = 0; i < 50; i++) await fn(i); // warm-up
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  let n = 0;
  const worker = async () => {
    while (performance.now() - start < MS_PER_OP) await fn(n++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  return { wall: (n * 1000) / elapsed, cpu: (n * 1e6) / (cpu.user + cpu.system) };
}

/** Median latency of a durable (O_DSYNC) 400-byte append, as the journal does it. */
function probeSyncWrite(path: string): number {
  const { O_WRONLY, O_APPEND, O_CREAT, O_DSYNC } = fsConstants;
  const fd = openSync(path, O_WRONLY | O_APPEND | O_CREAT | (O_DSYNC ?? 0));
  const buf = Buffer.alloc(400, 1);
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    writeSync(fd, buf);
    if (!O_DSYNC) fdatasyncSync(fd);
    times.push((performance.now() - t) * 1000);
  }
  closeSync(fd);
  rmSync(path);
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}

async function run(label: string, size: number, dataDir?: string): Promise<Record<string, Result>> {
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
  const r: Record<string, Result> = {};
  let extra = 0;
  r['insert (create)'] = await timed(() =>
    Track.create({ email: `extra${extra++}@example.com`, genre: 'gx', title: 'x' }),
  );
  r['insert, 8 concurrent clients'] = await timed(
    () => Track.create({ email: `extra${extra++}@example.com`, genre: 'gx', title: 'x' }),
    8,
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

const columns: [string, Record<string, Result>][] = [];
console.error('embedded-mongo benchmark (through mongoose, client and server in this process)');
await run('warm-up (JIT), not reported', 1_000);
columns.push(['memory 1k', await run('memory 1k', 1_000)]);
columns.push(['memory 10k', await run('memory 10k', 10_000)]);
const dir = mkdtempSync(join(tmpdir(), 'embedded-mongo-bench-'));
const syncLatencyUs = probeSyncWrite(join(dir, 'probe.bin'));
try {
  columns.push(['durable 10k', await run('durable 10k', 10_000, join(dir, 'db'))]);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const ops = Object.keys(columns[0][1]);
const headers = ['operation', ...columns.flatMap(([h]) => [`${h} wall/s`, `${h} per core/s`])];
const rows = ops.map((op) => [
  op,
  ...columns.flatMap(([, r]) => [fmt(r[op].wall), fmt(r[op].cpu)]),
]);
const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
const line = (cells: string[]) =>
  '| ' +
  cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ') +
  ' |';
console.log(line(headers));
console.log('|' + widths.map((w, i) => '-'.repeat(w + 1) + (i === 0 ? '-' : ':')).join('|') + '|');
for (const row of rows) console.log(line(row));
console.log(
  `\nwall/s: one client awaiting each call (the 8-client row: eight at once), wall-clock.` +
    `\nper core/s: operations per CPU-second of this process (mongoose client + server), i.e. the` +
    `\nrate on one dedicated core; it leaves out time spent waiting for fsync.` +
    `\nsynchronous 400-byte journal write on this disk: median ${Math.round(syncLatencyUs)} µs` +
    ` (bounds one client's durable writes to ~${fmt(1e6 / syncLatencyUs)}/s before any CPU).` +
    `\nload average during the run: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} on ${cpus().length} CPUs.`,
);
process.exit(0);
