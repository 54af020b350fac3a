import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import autocannon from 'autocannon';

import { flag, numberOption, option } from './bench-args';
import {
  adminCookie,
  cpuSeconds,
  fetchOnce,
  nodeClientRate,
  rssDetail,
  rssMb,
  startShapedServer,
  type StoreShape,
} from './bench-stores';
import { buildIfNeeded } from './prod-server';

/**
 * `npm run bench:soak [-- --minutes 10] [--store external|embedded] [--latency MS] [--cpu-prof DIR]
 * [--no-heap-snapshots]`:
 * mixed load for MINUTES minutes (default 10) on the external store (`npm run db` in its own
 * process, the default) or with `--store embedded` on the store in the server's own process
 * (what `npm start` runs without MONGODB_URI; decision 040's memory target), minute by minute: pages (/, /music, /blog,
 * /shows), the API (/api/tracks) from autocannon, 256 KB Range requests of an MP3 from Node's own
 * HTTP client (autocannon's decoding of MP3 bodies would make the bench the bound), and an admin
 * write every 5 s (the featured flag of a track toggled through /api/admin, which bumps the data
 * version and empties every cache). Prints, per minute, the requests per second of each kind and
 * the server's resident memory (RSS; and the external store's); then RSS after minute 1 against the last, and throughput of
 * the first minute against the last (targets: RSS within 20 %, throughput within 10 %), zero
 * errors.
 *
 * Leak or bound: the server runs with `--heapsnapshot-signal`; a heap snapshot (V8 collects
 * garbage first, so it holds only what is still reachable) is taken after the warm-up and after
 * the last minute, both outside the measured minutes. It prints the live heap of each, and the
 * kinds of objects whose count grew most between them. A leak keeps objects: the live heap and
 * some kind's count grow with the minutes; a bound does not. Writing a snapshot costs the server
 * native memory that malloc keeps afterwards (the RSS before and after the first is printed), so
 * `--no-heap-snapshots` leaves them out when the RSS itself is the figure (decision 040).
 *
 * The bench itself runs with `--max-semi-space-size=64` (package.json): with V8's default young
 * generation its garbage collector, churning through the bodies autocannon keeps as strings, went
 * from 1.5 % to 15 % of its time after about five minutes (its CPU 36 % → 68 % for fewer
 * requests), and the server's throughput fell with it while the server's own CPU per request
 * stayed flat. Each minute prints the CPU of the server, the store and this bench.
 */

const MINUTES = numberOption('--minutes', 10);
const LATENCY = numberOption('--latency', 0);
const STORE = option('--store') ?? 'external';
if (STORE !== 'external' && STORE !== 'embedded') {
  console.error('--store must be external or embedded');
  process.exit(2);
}
if (STORE === 'embedded' && LATENCY) {
  console.error('--latency needs the external store');
  process.exit(2);
}
const MINUTE_S = Number(process.env.SOAK_MINUTE_SECONDS ?? 60);
/** `--cpu-prof DIR`: the server writes a V8 CPU profile of the whole run into DIR when it stops. */
const SNAPSHOTS = !flag('--no-heap-snapshots');
const CPU_PROF = option('--cpu-prof');

type HeapSummary = {
  bytes: number;
  count: number;
  byKind: Map<string, { count: number; bytes: number }>;
};

/**
 * What a V8 heap snapshot holds: its live bytes and objects, by kind (node type and
 * constructor name). The format: `snapshot.meta.node_fields` names the fields of each node
 * in the flat `nodes` array; `name` indexes `strings`, `type` indexes the types list.
 */
function summariseHeap(file: string): HeapSummary {
  const snapshot = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const byKind = new Map<string, { count: number; bytes: number }>();
  let bytes = 0;
  let count = 0;
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const type = types[snapshot.nodes[i + typeAt!]!] ?? '?';
    const size = snapshot.nodes[i + sizeAt!]!;
    // Objects by constructor; strings, code, arrays… by type alone.
    const kind =
      type === 'object' || type === 'closure'
        ? `${type} ${snapshot.strings[snapshot.nodes[i + nameAt!]!]}`
        : `(${type})`;
    const entry = byKind.get(kind) ?? { count: 0, bytes: 0 };
    entry.count += 1;
    entry.bytes += size;
    byKind.set(kind, entry);
    bytes += size;
    count += 1;
  }
  return { bytes, count, byKind };
}

/** Ask the server for a heap snapshot (SIGUSR2) and wait until it is written. */
async function heapSnapshot(pid: number, origin: string, dir: string): Promise<string> {
  const before = new Set(fs.readdirSync(dir));
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + 180_000;
  for (;;) {
    const file = fs.readdirSync(dir).find((f) => f.endsWith('.heapsnapshot') && !before.has(f));
    // Writing blocks the server's event loop: once it answers again after the file appeared,
    // the snapshot is complete.
    if (file) {
      await (await fetchOnce(`${origin}/healthz`)).arrayBuffer();
      return path.join(dir, file);
    }
    if (Date.now() > deadline) throw new Error('No heap snapshot after 3 minutes.');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

type Row = { minute: number; reqs: Record<string, number>; errors: number; rss: number };

async function main() {
  buildIfNeeded();
  const shape: StoreShape =
    STORE === 'embedded' ? { kind: 'embedded' } : { kind: 'external', latencyMs: LATENCY };
  console.log(
    `Soak: ${MINUTES} min of mixed load on the ${STORE} store${LATENCY ? ` +${LATENCY} ms` : ''}…`,
  );
  const snapshots = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-soak-heap-'));
  const shaped = await startShapedServer(shape, {}, [
    '--heapsnapshot-signal=SIGUSR2',
    `--diagnostic-dir=${snapshots}`,
    ...(CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(CPU_PROF)}`] : []),
  ]);
  const { origin, pid } = shaped.server;
  let exitCode = 0;
  try {
    const cookie = await adminCookie(shaped, 'soak-admin');
    const tracks = (await (await fetchOnce(`${origin}/api/tracks`)).json()) as {
      id: number;
      audioFile: string;
    }[];
    const audio = tracks.find((t) => t.audioFile.startsWith('/uploads/audio/'))!.audioFile;
    const writeTrack = tracks[tracks.length - 1]!.id;
    const loads = [
      {
        name: 'pages',
        connections: 20,
        requests: ['/', '/music', '/blog', '/shows'].map((path) => ({ path })),
      },
      { name: 'api', connections: 10, requests: [{ path: '/api/tracks' }] },
    ];
    // The Range requests from Node's own client: autocannon decodes every body as UTF-8, 3.2 ms
    // for 256 KB of MP3 on this machine, which made the bench process (one thread, pegged at
    // 100 %) the bound of the whole soak while the server idled 40 % (decision 039).
    const range = { path: audio, headers: { Range: 'bytes=0-262143' }, connections: 10 };
    const rangeLoad = (ms: number) =>
      nodeClientRate(origin, range.path, range.headers, 206, ms, range.connections);
    // Warm-up (JIT, caches), not counted.
    await Promise.all([
      ...loads.map((load) =>
        autocannon({
          url: origin,
          connections: load.connections,
          duration: 10,
          requests: load.requests,
        }),
      ),
      rangeLoad(10_000),
    ]);
    const rssWarm = rssMb(pid);
    const heapBefore = SNAPSHOTS ? summariseHeap(await heapSnapshot(pid, origin, snapshots)) : null;
    if (heapBefore)
      console.log(
        `  live heap after the warm-up: ${(heapBefore.bytes / 1024 / 1024).toFixed(1)} MB in ${heapBefore.count} objects; RSS ${rssWarm} MB before the snapshot, ${rssMb(pid)} MB after`,
      );
    else console.log(`  RSS after the warm-up: ${rssWarm} MB`);
    const rows: Row[] = [];
    let featured = false;
    let writes = 0;
    let writeErrors = 0;
    // CPU of the app and of the store, per minute: which side a slowdown comes from.
    const storePid = shaped.storePid ?? 0;
    const benchCpu = () => {
      const used = process.cpuUsage();
      return (used.user + used.system) / 1e6;
    };
    let cpu = {
      app: cpuSeconds(pid),
      store: cpuSeconds(storePid),
      bench: benchCpu(),
      at: Date.now(),
    };
    for (let minute = 1; minute <= MINUTES; minute++) {
      const writer = setInterval(() => {
        featured = !featured;
        writes += 1;
        void fetchOnce(`${origin}/api/admin/tracks/${writeTrack}`, {
          method: 'PUT',
          headers: { Cookie: cookie, Origin: origin, 'Content-Type': 'application/json' },
          body: JSON.stringify({ featured }),
        })
          .then((r) => {
            if (r.status !== 200) writeErrors += 1;
            return r.arrayBuffer();
          })
          .catch(() => (writeErrors += 1));
      }, 5_000);
      const [rangeRate, results] = await Promise.all([
        rangeLoad(MINUTE_S * 1000),
        Promise.all(
          loads.map((load) =>
            autocannon({
              url: origin,
              connections: load.connections,
              duration: MINUTE_S,
              requests: load.requests,
              timeout: 10,
            }),
          ),
        ),
      ]);
      clearInterval(writer);
      const row: Row = {
        minute,
        reqs: {
          ...Object.fromEntries(loads.map((l, i) => [l.name, results[i]!.requests.average])),
          range: rangeRate,
        },
        errors: results.reduce((n, r) => n + r.errors + r.timeouts + r.non2xx, 0),
        rss: rssMb(pid),
      };
      const detail = rssDetail(pid);
      rows.push(row);
      const total = Object.values(row.reqs).reduce((a, b) => a + b, 0);
      const now = {
        app: cpuSeconds(pid),
        store: cpuSeconds(storePid),
        bench: benchCpu(),
        at: Date.now(),
      };
      const seconds = (now.at - cpu.at) / 1000;
      const share = (used: number) => `${((used / seconds) * 100).toFixed(0)} %`;
      const perRequest = (used: number) => ((used * 1000) / (total * MINUTE_S)).toFixed(2);
      console.log(
        `  minute ${String(minute).padStart(2)}: ${Object.entries(row.reqs)
          .map(([name, reqs]) => `${name} ${reqs.toFixed(0)}`)
          .join(
            ', ',
          )} req/s (total ${total.toFixed(0)}), errors ${row.errors}, RSS ${row.rss} MB (anonymous ${detail.anon}, file ${detail.file})${storePid ? `, store RSS ${rssMb(storePid)} MB` : ''}, ` +
          `CPU app ${share(now.app - cpu.app)} (${perRequest(now.app - cpu.app)} ms/request), store ${share(now.store - cpu.store)} (${perRequest(now.store - cpu.store)} ms/request), this bench ${share(now.bench - cpu.bench)} (heap ${(process.memoryUsage().heapUsed / 1024 / 1024).toFixed(0)} MB), load average ${os.loadavg()[0]!.toFixed(1)}`,
      );
      cpu = now;
    }
    const first = rows[0]!;
    const last = rows[rows.length - 1]!;
    const total = (r: Row) => Object.values(r.reqs).reduce((a, b) => a + b, 0);
    const rssRatio = last.rss / first.rss;
    const tputRatio = total(last) / total(first);
    const errors = rows.reduce((n, r) => n + r.errors, 0) + writeErrors;
    console.log(
      `\nRSS after minute 1: ${first.rss} MB, after minute ${last.minute}: ${last.rss} MB (${rssRatio.toFixed(2)}; target within 20 % ${Math.abs(rssRatio - 1) <= 0.2 ? 'ok' : 'MISSED'})`,
    );
    // Decision 040: the server (with its embedded store) in 512 MB at the end of the soak.
    if (STORE === 'embedded')
      console.log(
        `RSS at the end: ${last.rss} MB (target at most 512 MB ${last.rss <= 512 ? 'ok' : 'MISSED'})`,
      );
    else console.log(`RSS at the end: server ${last.rss} MB, store ${rssMb(storePid)} MB`);
    console.log(
      `Throughput minute 1: ${total(first).toFixed(0)} req/s, minute ${last.minute}: ${total(last).toFixed(0)} req/s (${tputRatio.toFixed(2)}; target within 10 % ${Math.abs(tputRatio - 1) <= 0.1 ? 'ok' : 'MISSED'})`,
    );
    console.log(`Admin writes: ${writes} (${writeErrors} failed); errors in all: ${errors}`);
    if (Math.abs(rssRatio - 1) > 0.2 || Math.abs(tputRatio - 1) > 0.1 || errors > 0) exitCode = 1;
    if (STORE === 'embedded' && last.rss > 512) exitCode = 1;
    // Let the last requests and the batched counts settle, then the second snapshot.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    if (!heapBefore) return;
    const heapAfter = summariseHeap(await heapSnapshot(pid, origin, snapshots));
    const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
    console.log(
      `\nLive heap (V8 heap snapshots, garbage collected first): ${mb(heapBefore.bytes)} MB in ${heapBefore.count} objects after the warm-up, ` +
        `${mb(heapAfter.bytes)} MB in ${heapAfter.count} objects after minute ${last.minute} (${(heapAfter.bytes / heapBefore.bytes).toFixed(2)}); RSS ${rssMb(pid)} MB then.`,
    );
    const growth = [...heapAfter.byKind]
      .map(([kind, after]) => {
        const before = heapBefore.byKind.get(kind) ?? { count: 0, bytes: 0 };
        return {
          kind,
          count: after.count - before.count,
          bytes: after.bytes - before.bytes,
          after,
        };
      })
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 8);
    console.log('Kinds of objects that grew most between the two snapshots (bytes, count):');
    for (const g of growth)
      console.log(
        `  ${g.kind.slice(0, 60).padEnd(60)} ${(g.bytes >= 0 ? '+' : '') + (g.bytes / 1024).toFixed(0)} KB, ${(g.count >= 0 ? '+' : '') + g.count} (now ${g.after.count})`,
      );
  } finally {
    process.exitCode = exitCode;
    await shaped.stop();
    fs.rmSync(snapshots, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
