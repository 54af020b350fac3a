import fs from 'node:fs';
import http from 'node:http';

import { adminSession, buildIfNeeded, type ProdServer, startProdServer } from './prod-server';

/**
 * `npm run bench:upload`: the server's resident memory while a 1 GiB audio upload streams in,
 * by the two paths (decision 036): tus (one POST, then PATCHes of 64 MiB, as a client with a
 * chunk size sends them) and the plain multipart form body (`POST /api/admin/tracks`, the path
 * of the form without JavaScript). The baseline is the same server idle, in the same run.
 *
 * RSS is read from /proc/<pid>/status every 250 ms. Memory must stay flat: the peak during an
 * upload may sit some tens of MB above the idle baseline (buffers, the V8 heap growing), but
 * must not grow with the bytes received (the figures at 25/50/75/100% say so).
 *
 * The body is generated as it is sent (a WAV header, then a tone), never held whole by the
 * client either. Options: BENCH_UPLOAD_MB (default 1024).
 */
const MB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_UPLOAD_MB ?? 1024) * MB;
const PATCH_SIZE = 64 * MB;
const PIECE = 256 * 1024;

const rssMb = (pid: number) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};

/** A 16-bit stereo 44.1 kHz WAV header for `size` bytes in all. */
function wavHeader(size: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(Math.min(size - 8, 0xffffffff), 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(2, 22);
  header.writeUInt32LE(44_100, 24);
  header.writeUInt32LE(44_100 * 4, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(size - 44, 40);
  return header;
}

/** One piece of a 440 Hz tone (a whole number of periods is not needed: it is a load test). */
const tone = (() => {
  const b = Buffer.alloc(PIECE);
  for (let i = 0; i < PIECE / 4; i++) {
    const v = Math.round(Math.sin((2 * Math.PI * 440 * i) / 44_100) * 8000);
    b.writeInt16LE(v, i * 4);
    b.writeInt16LE(v, i * 4 + 2);
  }
  return b;
})();

/** Bytes [from, to) of the WAV file, generated. */
function* fileBytes(from: number, to: number): Generator<Buffer> {
  const header = wavHeader(SIZE);
  let at = from;
  while (at < to) {
    if (at < header.length) {
      const piece = header.subarray(at, Math.min(header.length, to));
      at += piece.length;
      yield piece;
      continue;
    }
    const n = Math.min(PIECE, to - at);
    at += n;
    yield tone.subarray(0, n);
  }
}

type Sampler = {
  stop: () => { samples: number[]; peak: number; at: (fraction: number) => number };
};

/** RSS every 250 ms; `progress()` says how far the upload is (0..1) for the quartile figures. */
function sample(pid: number, progress: () => number): Sampler {
  const samples: number[] = [];
  const byProgress: { p: number; rss: number }[] = [];
  const timer = setInterval(() => {
    const rss = rssMb(pid);
    samples.push(rss);
    byProgress.push({ p: progress(), rss });
  }, 250);
  return {
    stop() {
      clearInterval(timer);
      return {
        samples,
        peak: Math.max(...samples),
        at: (fraction) =>
          byProgress.find((s) => s.p >= fraction)?.rss ?? byProgress.at(-1)?.rss ?? 0,
      };
    },
  };
}

/** Send a request with a generated body; resolves with status and body text. */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: Iterable<Buffer>,
  onBytes: (n: number) => void,
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }),
      );
    });
    req.on('error', reject);
    const iterator = body[Symbol.iterator]();
    const pump = () => {
      for (;;) {
        const next = iterator.next();
        if (next.done) {
          req.end();
          return;
        }
        onBytes(next.value.length);
        if (!req.write(next.value)) {
          req.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });
}

const meta = (pairs: Record<string, string>) =>
  Object.entries(pairs)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

type Result = {
  path: string;
  seconds: number;
  peak: number;
  quartiles: number[];
  after: number;
};

async function viaTus(server: ProdServer, cookie: string): Promise<Result> {
  const base = { Cookie: cookie, Origin: server.origin, 'Tus-Resumable': '1.0.0' };
  const created = await fetch(`${server.origin}/api/admin/uploads`, {
    method: 'POST',
    headers: {
      ...base,
      'Upload-Length': String(SIZE),
      'Upload-Metadata': meta({ filename: 'bench.wav', filetype: 'audio/wav' }),
    },
  });
  if (created.status !== 201) throw new Error(`tus create: ${created.status}`);
  const url = new URL(created.headers.get('Location')!, server.origin).href;
  let sent = 0;
  const sampler = sample(server.pid, () => sent / SIZE);
  const started = performance.now();
  for (let offset = 0; offset < SIZE; offset += PATCH_SIZE) {
    const end = Math.min(SIZE, offset + PATCH_SIZE);
    const answer = await send(
      url,
      'PATCH',
      {
        ...base,
        'Upload-Offset': String(offset),
        'Content-Type': 'application/offset+octet-stream',
        'Content-Length': String(end - offset),
      },
      fileBytes(offset, end),
      (n) => (sent += n),
    );
    if (answer.status !== 204) throw new Error(`tus PATCH: ${answer.status} ${answer.body}`);
  }
  const seconds = (performance.now() - started) / 1000;
  const figures = sampler.stop();
  return {
    path: 'tus (PATCHes of 64 MiB)',
    seconds,
    peak: figures.peak,
    quartiles: [0.25, 0.5, 0.75, 1].map(figures.at),
    after: rssMb(server.pid),
  };
}

async function viaMultipart(server: ProdServer, cookie: string): Promise<Result> {
  const boundary = `bench${Date.now()}`;
  const cover = fs.readFileSync('tests/fixtures/cover.jpg');
  const head = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nA gigabyte\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="coverImage"; filename="cover.jpg"\r\n` +
        `Content-Type: image/jpeg\r\n\r\n`,
    ),
    cover,
    Buffer.from(
      `\r\n--${boundary}\r\nContent-Disposition: form-data; name="audioFile"; filename="bench.wav"\r\n` +
        `Content-Type: audio/wav\r\n\r\n`,
    ),
  ]);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  let sent = 0;
  const total = head.length + SIZE + tail.length;
  const sampler = sample(server.pid, () => sent / total);
  const started = performance.now();
  const body = (function* () {
    yield head;
    yield* fileBytes(0, SIZE);
    yield tail;
  })();
  const answer = await send(
    `${server.origin}/api/admin/tracks`,
    'POST',
    {
      Cookie: cookie,
      Origin: server.origin,
      'Content-Type': `multipart/form-data; boundary=${boundary}`,
      'Content-Length': String(total),
    },
    body,
    (n) => (sent += n),
  );
  const seconds = (performance.now() - started) / 1000;
  const figures = sampler.stop();
  if (answer.status !== 201) throw new Error(`multipart: ${answer.status} ${answer.body}`);
  return {
    path: 'multipart POST /api/admin/tracks',
    seconds,
    peak: figures.peak,
    quartiles: [0.25, 0.5, 0.75, 1].map(figures.at),
    after: rssMb(server.pid),
  };
}

async function main() {
  buildIfNeeded();
  const server = await startProdServer({ env: { MAX_AUDIO_MB: String(Math.ceil(SIZE / MB)) } });
  try {
    const cookie = await adminSession(server, 'bench-upload-admin');
    // The idle baseline: the same server, warmed by the login, for 3 s.
    const idle = sample(server.pid, () => 0);
    await new Promise((r) => setTimeout(r, 3000));
    const baseline = idle.stop();
    const base = baseline.samples.reduce((a, b) => a + b, 0) / baseline.samples.length;
    const results = [await viaTus(server, cookie), await viaMultipart(server, cookie)];

    const f = (n: number) => n.toFixed(0).padStart(5);
    console.log(
      `\nServer RSS while ${SIZE / MB} MiB of audio streams in (idle baseline ${base.toFixed(0)} MB, ` +
        `${os()}):\n`,
    );
    console.log(
      'path                              MB/s   RSS at 25%   50%   75%  100%   peak  over idle',
    );
    for (const r of results) {
      console.log(
        `${r.path.padEnd(32)} ${f(SIZE / MB / r.seconds)}   ${f(r.quartiles[0]!)}     ${f(r.quartiles[1]!)} ${f(
          r.quartiles[2]!,
        )} ${f(r.quartiles[3]!)}  ${f(r.peak)}  ${f(r.peak - base)}`,
      );
    }
    const growth = results.map((r) => r.quartiles[3]! - r.quartiles[0]!);
    console.log(
      `\nGrowth from 25% to 100% of the file: ${growth.map((g) => `${g.toFixed(0)} MB`).join(', ')} ` +
        `(flat means it does not grow with the file: ${SIZE / MB} MiB in, memory in tens of MB).`,
    );
  } finally {
    await server.stop();
  }
}

const os = () => `${process.platform} ${process.arch}, Node ${process.version}`;

await main();
