import fs from 'node:fs';
import os from 'node:os';

import autocannon from 'autocannon';
import { createMp3Encoder } from 'wasm-media-encoders';

import { adminSession, buildIfNeeded, type ProdServer, startProdServer } from './prod-server';

/**
 * `npm run bench:media`: Range requests on a 40 MB audio file from GridFS, as a ratio of the
 * same requests from the disk, in one run (decision 023).
 *
 * For each MEDIA_STORAGE (disk, gridfs, then gridfs with GRIDFS_CHUNK_CACHE_MB=0), a production server on the embedded store gets
 * an administrator and a 40 MB MP3 uploaded through the admin API; then autocannon (50
 * connections) asks for 256 KiB at the start of the file and 256 KiB from its middle, and for a
 * static file (`/favicon.svg`, the floor of the same server). The server's resident memory is
 * read before and after: a Range request must not read the file whole into memory.
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

const rssMb = (pid: number) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};

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

type Row = { name: string; reqs: number; mbps: number; p99: number };

async function measure(server: ProdServer, audioUrl: string): Promise<Row[]> {
  const middle = Math.floor(SIZE / 2);
  const targets: { name: string; url: string; headers: Record<string, string> }[] = [
    { name: 'static /favicon.svg', url: '/favicon.svg', headers: {} },
    { name: 'Range: first 256 KiB', url: audioUrl, headers: { Range: `bytes=0-${SLICE - 1}` } },
    {
      name: 'Range: 256 KiB at 20 MB',
      url: audioUrl,
      headers: { Range: `bytes=${middle}-${middle + SLICE - 1}` },
    },
  ];
  const rows: Row[] = [];
  for (const t of targets) {
    const opts = { url: `${server.origin}${t.url}`, headers: t.headers, connections: CONNECTIONS };
    await autocannon({ ...opts, duration: 2 });
    const result = await autocannon({ ...opts, duration: DURATION });
    if (result.errors + result.timeouts > 0 || result.non2xx > 0)
      throw new Error(`${t.name}: ${result.errors} errors, ${result.non2xx} non-2xx`);
    rows.push({
      name: t.name,
      reqs: result.requests.average,
      mbps: result.throughput.average / 1024 / 1024,
      p99: result.latency.p99,
    });
  }
  return rows;
}

async function main() {
  buildIfNeeded();
  const audio = await mp3();
  const results: Record<string, { rows: Row[]; rssBefore: number; rssAfter: number }> = {};
  // GridFS twice: with its chunk cache (the default), and without (every Range a query).
  const modes = {
    disk: { MEDIA_STORAGE: 'disk' },
    gridfs: { MEDIA_STORAGE: 'gridfs' },
    uncached: { MEDIA_STORAGE: 'gridfs', GRIDFS_CHUNK_CACHE_MB: '0' },
  } as const;
  for (const [storage, env] of Object.entries(modes)) {
    console.log(`${JSON.stringify(env)}: starting, uploading 40 MB…`);
    const server = await startProdServer({ env: { ...env, SEED: 'false' } });
    try {
      const url = await uploadAs(server, audio);
      const check = await fetch(`${server.origin}${url}`, {
        headers: { Range: 'bytes=1000-1999' },
      });
      const bytes = Buffer.from(await check.arrayBuffer());
      if (check.status !== 206 || !bytes.equals(audio.subarray(1000, 2000)))
        throw new Error(`${storage}: the Range answer is wrong (${check.status})`);
      const rssBefore = rssMb(server.pid);
      const rows = await measure(server, url);
      results[storage] = { rows, rssBefore, rssAfter: rssMb(server.pid) };
    } finally {
      await server.stop();
    }
  }
  console.log(
    `\n${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, ` +
      `${CONNECTIONS} connections, ${DURATION} s per target; a 40 MB MP3 on the embedded store.\n`,
  );
  console.log(
    'target                     disk req/s  gridfs req/s  gridfs : disk   no chunk cache : disk   p99 ms (disk / gridfs / no cache)',
  );
  const disk = results.disk!;
  const grid = results.gridfs!;
  const uncached = results.uncached!;
  disk.rows.forEach((row, i) => {
    const g = grid.rows[i]!;
    const u = uncached.rows[i]!;
    console.log(
      `${row.name.padEnd(26)}${row.reqs.toFixed(0).padStart(11)}${g.reqs.toFixed(0).padStart(14)}` +
        `${(g.reqs / row.reqs).toFixed(2).padStart(15)}${(u.reqs / row.reqs).toFixed(2).padStart(24)}` +
        `   ${row.p99} / ${g.p99} / ${u.p99}`,
    );
  });
  console.log(
    `\nServer memory (RSS) before → after the Range load: disk ${disk.rssBefore.toFixed(0)} → ${disk.rssAfter.toFixed(0)} MB, ` +
      `gridfs ${grid.rssBefore.toFixed(0)} → ${grid.rssAfter.toFixed(0)} MB, ` +
      `no chunk cache ${uncached.rssBefore.toFixed(0)} → ${uncached.rssAfter.toFixed(0)} MB (the file is 40 MB).`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
