import fs from 'node:fs';
import os from 'node:os';

import autocannon from 'autocannon';
import { createMp3Encoder } from 'wasm-media-encoders';

import { mean, nodeClientRate, rssMb } from './bench-stores';
import { adminSession, buildIfNeeded, type ProdServer, startProdServer } from './prod-server';

/**
 * `npm run bench:media`: Range requests on a 40 MB audio file from GridFS, as a ratio of the
 * same requests from the disk, in one run (decision 023).
 *
 * For each MEDIA_STORAGE (disk, gridfs, then gridfs with GRIDFS_CHUNK_CACHE_MB=0), a production
 * server on the embedded store gets an administrator and a 40 MB MP3 uploaded through the admin
 * API; the three run side by side. Then, in two rounds alternating the three servers, autocannon
 * (50 connections) and Node's own HTTP client (50 keep-alive sockets, which does not decode the
 * bodies as autocannon does) ask for 256 KiB at the start of the file and 256 KiB from its
 * middle, and for a static file (`/favicon.svg`, the floor of the same server). The servers'
 * resident memory is read before and after: a Range request must not read the file whole into
 * memory.
 *
 * Options: BENCH_DURATION (seconds per measurement, default 8), BENCH_CONNECTIONS (default 50).
 */
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SIZE = 40 * 1024 * 1024;
const SLICE = 256 * 1024;

/**
 * A valid 192 kbps MP3 of about SIZE bytes: ten seconds of silence encoded once with LAME and
 * repeated (a run of MPEG frames stays one valid stream). An MP3 at or below 320 kbps is
 * streamed as uploaded (decision 035), so the file measured is the file uploaded; a WAV would
 * be served to listeners only as its 192 kbps stream.
 */
async function mp3(): Promise<Buffer> {
  const encoder = await createMp3Encoder();
  encoder.configure({ sampleRate: 44_100, channels: 1, bitrate: 192 });
  const silence = new Float32Array(44_100 * 10);
  const once = Buffer.concat([
    Buffer.from(encoder.encode([silence])),
    Buffer.from(encoder.finalize()),
  ]);
  return Buffer.concat(Array.from({ length: Math.floor(SIZE / once.length) }, () => once));
}

async function uploadAs(server: ProdServer, audio: Buffer): Promise<string> {
  const cookie = await adminSession(server, 'bench-media-admin');
  const form = new FormData();
  form.set('title', 'Forty megabytes');
  form.set(
    'coverImage',
    new Blob([fs.readFileSync('tests/fixtures/cover.jpg')], { type: 'image/jpeg' }),
    'cover.jpg',
  );
  form.set('audioFile', new Blob([new Uint8Array(audio)], { type: 'audio/mpeg' }), 'long.mp3');
  const response = await fetch(`${server.origin}/api/admin/tracks`, {
    method: 'POST',
    headers: { Cookie: cookie, Origin: server.origin },
    body: form,
  });
  if (response.status !== 201)
    throw new Error(`upload: ${response.status} ${await response.text()}`);
  const track = (await response.json()) as { id: number; audioFile: string };
  // Its media job decodes it for the waveform: measure once that is done, on an idle server.
  // Decoding 40 MB of MP3 took over a minute on the shared 2-core machine: wait up to five.
  for (let tries = 0; ; tries++) {
    const peaks = await fetch(`${server.origin}/api/tracks/${track.id}/peaks`);
    if (peaks.status === 200) break;
    if (tries > 3000) throw new Error(`no waveform after five minutes (${peaks.status})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return track.audioFile;
}

type Target = { name: string; url: string; headers: Record<string, string>; status: number };
type Mode = 'disk' | 'gridfs' | 'uncached';
const MODES: Record<Mode, Record<string, string>> = {
  disk: { MEDIA_STORAGE: 'disk' },
  gridfs: { MEDIA_STORAGE: 'gridfs' },
  // GridFS without its chunk cache: every Range a query.
  uncached: { MEDIA_STORAGE: 'gridfs', GRIDFS_CHUNK_CACHE_MB: '0' },
};
const ROUNDS = 2;

function targetsFor(audioUrl: string): Target[] {
  const middle = Math.floor(SIZE / 2);
  return [
    { name: 'static /favicon.svg', url: '/favicon.svg', headers: {}, status: 200 },
    {
      name: 'Range: first 256 KiB',
      url: audioUrl,
      headers: { Range: `bytes=0-${SLICE - 1}` },
      status: 206,
    },
    {
      name: 'Range: 256 KiB at 20 MB',
      url: audioUrl,
      headers: { Range: `bytes=${middle}-${middle + SLICE - 1}` },
      status: 206,
    },
  ];
}

/** autocannon's requests/s and p99 for one target (after a 2 s warm-up). */
async function autocannonRate(server: ProdServer, t: Target) {
  const opts = { url: `${server.origin}${t.url}`, headers: t.headers, connections: CONNECTIONS };
  await autocannon({ ...opts, duration: 2 });
  const result = await autocannon({ ...opts, duration: DURATION });
  if (result.errors + result.timeouts > 0 || result.non2xx > 0)
    throw new Error(`${t.name}: ${result.errors} errors, ${result.non2xx} non-2xx`);
  return { reqs: result.requests.average, p99: result.latency.p99 };
}

const fmt = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');

async function main() {
  buildIfNeeded();
  const audio = await mp3();
  // The three servers run side by side and are measured in turn, target by target, for
  // ROUNDS rounds: A and B alternate within the run, so the machine's load falls on all three.
  const servers = {} as Record<Mode, { server: ProdServer; url: string; rssBefore: number }>;
  try {
    for (const [mode, env] of Object.entries(MODES) as [Mode, Record<string, string>][]) {
      console.log(`${JSON.stringify(env)}: starting, uploading 40 MB…`);
      const server = await startProdServer({ env: { ...env, SEED: 'false' } });
      servers[mode] = { server, url: '', rssBefore: 0 };
      const url = await uploadAs(server, audio);
      const check = await fetch(`${server.origin}${url}`, {
        headers: { Range: 'bytes=1000-1999' },
      });
      const bytes = Buffer.from(await check.arrayBuffer());
      if (check.status !== 206 || !bytes.equals(audio.subarray(1000, 2000)))
        throw new Error(`${mode}: the Range answer is wrong (${check.status})`);
      servers[mode].url = url;
    }
    const modes = Object.keys(MODES) as Mode[];
    for (const mode of modes) servers[mode].rssBefore = rssMb(servers[mode].server.pid);
    type Figures = { autocannon: number[]; node: number[]; p99: number[] };
    const figures = new Map<string, Record<Mode, Figures>>();
    for (let round = 1; round <= ROUNDS; round++) {
      console.log(`Round ${round} of ${ROUNDS}…`);
      for (const [i, name] of targetsFor('').map((t, i) => [i, t.name] as const)) {
        const row =
          figures.get(name) ??
          (Object.fromEntries(
            modes.map((m) => [m, { autocannon: [], node: [], p99: [] }]),
          ) as unknown as Record<Mode, Figures>);
        figures.set(name, row);
        for (const mode of modes) {
          const { server, url } = servers[mode];
          const t = targetsFor(url)[i]!;
          const a = await autocannonRate(server, t);
          row[mode].autocannon.push(a.reqs);
          row[mode].p99.push(a.p99);
          row[mode].node.push(
            await nodeClientRate(server.origin, t.url, t.headers, t.status, 4000, CONNECTIONS),
          );
        }
      }
    }
    console.log(
      `\n${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, ` +
        `${CONNECTIONS} connections, ${DURATION} s per autocannon target and 4 s per Node-client ` +
        `target, ${ROUNDS} rounds alternating the three servers; a 40 MB MP3 on the embedded store. ` +
        `Load average ${os.loadavg()[0]!.toFixed(1)}.\n` +
        `autocannon decodes each body as UTF-8 (its cost depends on the bytes and can bound it); ` +
        `Node's own client does not.\n`,
    );
    for (const [client, key] of [
      ['autocannon', 'autocannon'],
      ["Node's http client", 'node'],
    ] as const) {
      console.log(
        `${client}, req/s per round:\n` +
          `${'target'.padEnd(26)}${'disk'.padStart(16)}${'gridfs'.padStart(16)}${'no cache'.padStart(16)}` +
          `${'gridfs : disk'.padStart(15)}${'no cache : disk'.padStart(17)}`,
      );
      for (const [name, row] of figures) {
        const d = mean(row.disk[key]);
        console.log(
          `${name.padEnd(26)}${fmt(row.disk[key]).padStart(16)}${fmt(row.gridfs[key]).padStart(16)}` +
            `${fmt(row.uncached[key]).padStart(16)}${(mean(row.gridfs[key]) / d).toFixed(2).padStart(15)}` +
            `${(mean(row.uncached[key]) / d).toFixed(2).padStart(17)}`,
        );
      }
      console.log('');
    }
    console.log(
      `p99 ms by autocannon (disk / gridfs / no cache): ${[...figures]
        .map(
          ([name, row]) =>
            `${name} ${fmt(row.disk.p99)} / ${fmt(row.gridfs.p99)} / ${fmt(row.uncached.p99)}`,
        )
        .join('; ')}`,
    );
    console.log(
      `\nServer memory (RSS) before → after the Range load: ` +
        modes
          .map(
            (m) =>
              `${m} ${servers[m].rssBefore.toFixed(0)} → ${rssMb(servers[m].server.pid).toFixed(0)} MB`,
          )
          .join(', ') +
        ' (the file is 40 MB).',
    );
  } finally {
    await Promise.all(Object.values(servers).map(({ server }) => server.stop()));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
