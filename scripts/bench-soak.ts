import os from 'node:os';

import autocannon from 'autocannon';

import {
  adminCookie,
  fetchOnce,
  rssDetail,
  rssMb,
  startShapedServer,
  type StoreShape,
} from './bench-stores';
import { buildIfNeeded } from './prod-server';

/**
 * `npm run bench:soak [-- --minutes 10] [--latency MS]`: mixed load on the external store for
 * MINUTES minutes (default 10), minute by minute: pages (/, /music, /blog, /shows), the API
 * (/api/tracks), 256 KB Range requests of an MP3, and an admin write every 5 s (the featured
 * flag of a track toggled through /api/admin, which bumps the data version and empties every
 * cache). Prints, per minute, the requests per second of each kind and the server's resident
 * memory (RSS); then RSS after minute 1 against the last, and throughput of the first minute
 * against the last (targets: RSS within 20 %, throughput within 10 %), zero errors.
 */

const argv = process.argv.slice(2);
const option = (name: string) => {
  const i = argv.indexOf(name);
  return i === -1 ? undefined : argv[i + 1];
};
const MINUTES = Number(option('--minutes') ?? 10);
const LATENCY = Number(option('--latency') ?? 0);
const MINUTE_S = Number(process.env.SOAK_MINUTE_SECONDS ?? 60);

type Row = { minute: number; reqs: Record<string, number>; errors: number; rss: number };

async function main() {
  buildIfNeeded();
  const shape: StoreShape = { kind: 'external', latencyMs: LATENCY };
  console.log(
    `Soak: ${MINUTES} min of mixed load on the external store${LATENCY ? ` +${LATENCY} ms` : ''}…`,
  );
  const shaped = await startShapedServer(shape);
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
      {
        name: 'range',
        connections: 10,
        requests: [{ path: audio, headers: { Range: 'bytes=0-262143' } }],
      },
    ];
    // Warm-up (JIT, caches), not counted.
    await Promise.all(
      loads.map((load) =>
        autocannon({
          url: origin,
          connections: load.connections,
          duration: 10,
          requests: load.requests,
        }),
      ),
    );
    const rows: Row[] = [];
    let featured = false;
    let writes = 0;
    let writeErrors = 0;
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
      const results = await Promise.all(
        loads.map((load) =>
          autocannon({
            url: origin,
            connections: load.connections,
            duration: MINUTE_S,
            requests: load.requests,
            timeout: 10,
          }),
        ),
      );
      clearInterval(writer);
      const row: Row = {
        minute,
        reqs: Object.fromEntries(loads.map((l, i) => [l.name, results[i]!.requests.average])),
        errors: results.reduce((n, r) => n + r.errors + r.timeouts + r.non2xx, 0),
        rss: rssMb(pid),
      };
      const detail = rssDetail(pid);
      rows.push(row);
      const total = Object.values(row.reqs).reduce((a, b) => a + b, 0);
      console.log(
        `  minute ${String(minute).padStart(2)}: ${loads.map((l) => `${l.name} ${row.reqs[l.name]!.toFixed(0)}`).join(', ')} req/s (total ${total.toFixed(0)}), errors ${row.errors}, RSS ${row.rss} MB (anonymous ${detail.anon}, file ${detail.file}), load average ${os.loadavg()[0]!.toFixed(1)}`,
      );
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
    console.log(
      `Throughput minute 1: ${total(first).toFixed(0)} req/s, minute ${last.minute}: ${total(last).toFixed(0)} req/s (${tputRatio.toFixed(2)}; target within 10 % ${Math.abs(tputRatio - 1) <= 0.1 ? 'ok' : 'MISSED'})`,
    );
    console.log(`Admin writes: ${writes} (${writeErrors} failed); errors in all: ${errors}`);
    if (Math.abs(rssRatio - 1) > 0.2 || Math.abs(tputRatio - 1) > 0.1 || errors > 0) exitCode = 1;
  } finally {
    await shaped.stop();
  }
  process.exitCode = exitCode;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
