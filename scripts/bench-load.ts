// `npm run bench:load`: an HTTP load test of the production build (run `npm run build` first).
// 100 concurrent clients for 30 s spread over `/`, `/music`, `/api/tracks` and a media Range
// request, plus a trickle of contact posts (2/s). Prints figures; fails (exit 1) on any error,
// non-2xx answer or lost message. Not a timed test.
//
//   npm run bench:load                        # starts its own server on a temp store (seeded)
//   BENCH_URL=http://localhost:3000 npm run bench:load   # against a running server
//   BENCH_DURATION=10 BENCH_CONNECTIONS=40 npm run bench:load
//
// Against BENCH_URL the message count is checked through /api/admin/messages, which needs
// BENCH_ADMIN_USERNAME / BENCH_ADMIN_PASSWORD; the server's contact limit must allow the trickle.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

import { apiLogin, runScriptFor, startServer, type TestServer } from '../tests/security/server';

/** The part of autocannon's API used here (the package ships no types). */
type AutocannonResult = {
  requests: { average: number; total: number };
  latency: { p50: number; p90: number; p99: number; max: number; average: number };
  throughput: { average: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
};
type AutocannonOptions = {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
};
type Autocannon = (
  options: AutocannonOptions,
  callback: (error: Error | null, result: AutocannonResult) => void,
) => unknown;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const duration = Number(process.env.BENCH_DURATION ?? 30);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 100);
const contactPerSecond = Number(process.env.BENCH_CONTACT_RATE ?? 2);

function run(options: AutocannonOptions): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

const owned: { server: TestServer | null; dir: string | null } = { server: null, dir: null };
let base = process.env.BENCH_URL?.replace(/\/$/, '');
let admin = {
  username: process.env.BENCH_ADMIN_USERNAME ?? '',
  password: process.env.BENCH_ADMIN_PASSWORD ?? '',
};

async function main(): Promise<number> {
  if (!base) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-bench-'));
    owned.dir = dir;
    console.log('Starting a production server on a temporary seeded store…');
    const server = await startServer(dir, { SEED: 'true' });
    owned.server = server;
    base = server.url;
    admin = { username: 'bench-admin', password: 'bench-admin-password' };
    runScriptFor(dir, 'scripts/create-admin.ts', {
      ADMIN_USERNAME: admin.username,
      ADMIN_PASSWORD: admin.password,
    });
  }
  const url = base;
  const cookie = admin.username ? await apiLogin(url, admin.username, admin.password) : '';
  const countMessages = async (): Promise<number | null> => {
    if (!cookie) return null;
    const res = await fetch(`${url}/api/admin/messages`, { headers: { Cookie: cookie } });
    return res.ok ? ((await res.json()) as unknown[]).length : null;
  };

  const tracks = (await (await fetch(`${url}/api/tracks`)).json()) as { audioFile: string }[];
  const media =
    tracks.find((t) => t.audioFile?.startsWith('/uploads/'))?.audioFile ??
    '/uploads/audio/fallback.mp3';
  const before = await countMessages();

  // The trickle of contact posts, in parallel with the load.
  let posted = 0;
  let acknowledged = 0;
  const postErrors: string[] = [];
  const ids: number[] = [];
  const trickle = setInterval(() => {
    posted += 1;
    const n = posted;
    fetch(`${url}/api/contact`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: url },
      body: JSON.stringify({
        name: `Load ${n}`,
        email: `load-${n}@example.com`,
        subject: 'Booking Inquiry',
        message: `Message ${n} sent during the load test ${crypto.randomUUID()}`,
      }),
    })
      .then(async (res) => {
        if (res.status === 201) {
          acknowledged += 1;
          ids.push(((await res.json()) as { id: number }).id);
        } else postErrors.push(`${res.status} ${await res.text()}`);
      })
      .catch((error: unknown) => postErrors.push(String(error)));
  }, 1000 / contactPerSecond);

  const share = Math.max(1, Math.floor(connections / 4));
  const targets: { name: string; options: AutocannonOptions }[] = [
    { name: 'GET /', options: { url: `${url}/`, connections: share, duration } },
    { name: 'GET /music', options: { url: `${url}/music`, connections: share, duration } },
    {
      name: 'GET /api/tracks',
      options: { url: `${url}/api/tracks`, connections: share, duration },
    },
    {
      name: `GET ${media} (Range)`,
      options: {
        url: `${url}${media}`,
        connections: connections - 3 * share,
        duration,
        headers: { Range: 'bytes=0-65535' },
      },
    },
  ];
  console.log(
    `Load: ${connections} concurrent clients for ${duration} s on ${targets.map((t) => t.name).join(', ')}, plus ${contactPerSecond} contact posts/s`,
  );
  const results = await Promise.all(targets.map((t) => run(t.options)));
  clearInterval(trickle);
  // Let the last posts land.
  const deadline = Date.now() + 10_000;
  while (acknowledged + postErrors.length < posted && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));

  let failures = 0;
  console.log('');
  console.log(
    'target                                   req/s    total   p50 ms  p99 ms  max ms  errors  non-2xx',
  );
  targets.forEach((t, i) => {
    const r = results[i]!;
    failures += r.errors + r.timeouts + r.non2xx;
    console.log(
      `${t.name.padEnd(40)} ${r.requests.average.toFixed(0).padStart(6)} ${String(r.requests.total).padStart(8)} ${String(r.latency.p50).padStart(8)} ${String(r.latency.p99).padStart(7)} ${String(r.latency.max).padStart(7)} ${String(r.errors + r.timeouts).padStart(7)} ${String(r.non2xx).padStart(8)}`,
    );
  });
  const total = results.reduce((n, r) => n + r.requests.total, 0);
  console.log(`all targets: ${total} requests, ${(total / duration).toFixed(0)} req/s`);

  const after = await countMessages();
  let lost = 0;
  if (cookie) {
    const res = await fetch(`${url}/api/admin/messages`, { headers: { Cookie: cookie } });
    const stored = new Set(((await res.json()) as { id: number }[]).map((m) => m.id));
    lost = ids.filter((id) => !stored.has(id)).length;
  }
  console.log(
    `contact posts: ${posted} sent, ${acknowledged} acknowledged (201), ${postErrors.length} failed, ` +
      (after !== null && before !== null
        ? `${after - before} new messages stored, ${lost} acknowledged messages missing`
        : 'message count not checked (no admin credentials)'),
  );
  for (const e of postErrors.slice(0, 5)) console.log(`  post error: ${e}`);
  failures += postErrors.length + lost;
  if (after !== null && before !== null && after - before !== acknowledged) failures += 1;
  console.log(
    failures === 0 ? 'OK: zero errors, zero lost messages' : `FAILED: ${failures} problem(s)`,
  );
  return failures === 0 ? 0 : 1;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  console.error(error);
} finally {
  if (owned.server) {
    owned.server.proc.kill('SIGTERM');
    await owned.server.exited;
  }
  if (owned.dir) fs.rmSync(owned.dir, { recursive: true, force: true });
}
process.exit(code);
