import fs from 'node:fs';
import path from 'node:path';

import autocannon, { type Result } from 'autocannon';

import { buildIfNeeded, projectRoot, startProdServer } from './prod-server';

/**
 * `npm run bench`: throughput of the production build on the seeded demo content.
 *
 * Starts the production server (server/index.ts, NODE_ENV=production, temporary
 * DATA_DIR/UPLOADS_DIR, SEED=true), then for each target runs autocannon with 50 connections for DURATION seconds (after a short
 * warm-up) and prints requests/s, p50/p99 latency, errors and the ratio to a static file of the
 * same size as the home page's HTML served from public/ by the same server.
 *
 * Options: BENCH_DURATION (seconds, default 10), BENCH_CONNECTIONS (default 50).
 * Bars: `/` ≥ 0.25 of the static baseline, `/api/tracks` ≥ 0.40, zero errors; `/` with visit
 * counting on ≥ 0.90 of the same page from a server with ANALYTICS=false.
 */

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP = 2;
const BASELINE_DURATION = Math.max(3, Math.round(DURATION / 2));
const BASELINE_FILE = path.join(projectRoot, 'public', 'bench-baseline.html');

type Target = {
  name: string;
  path: string;
  headers?: Record<string, string>;
  expectStatus: number;
};

async function run(origin: string, target: Target, duration: number): Promise<Result> {
  return autocannon({
    url: `${origin}${target.path}`,
    connections: CONNECTIONS,
    duration,
    headers: target.headers,
    timeout: 10,
  });
}

function pad(value: string, width: number, right = false): string {
  return right ? value.padStart(width) : value.padEnd(width);
}

async function main() {
  buildIfNeeded();
  console.log('Starting the production server with the demo content…');
  const server = await startProdServer();
  let exitCode = 0;
  try {
    const { origin } = server;
    // The home page's HTML, to size the static baseline after it.
    const home = await fetch(`${origin}/`);
    const homeHtml = Buffer.from(await home.arrayBuffer());
    const filler = '<!-- static baseline for npm run bench -->\n';
    let baseline = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Baseline</title></head><body>`;
    while (Buffer.byteLength(baseline) < homeHtml.length - 20) baseline += filler;
    baseline = `${baseline.slice(0, homeHtml.length - 14)}</body></html>`.padEnd(
      homeHtml.length,
      ' ',
    );
    fs.writeFileSync(BASELINE_FILE, baseline);

    // One seeded MP3 for the Range request.
    const tracks = (await (await fetch(`${origin}/api/tracks`)).json()) as { audioFile: string }[];
    const audio = tracks.find((t) => t.audioFile.startsWith('/uploads/audio/'))?.audioFile;
    if (!audio) throw new Error('No seeded track with an /uploads/audio/ file.');
    const audioSize = Number(
      (await fetch(`${origin}${audio}`, { method: 'HEAD' })).headers.get('content-length'),
    );
    const rangeEnd = Math.min(262_143, audioSize - 1);

    const targets: Target[] = [
      { name: 'static baseline', path: '/bench-baseline.html', expectStatus: 200 },
      { name: '/', path: '/', expectStatus: 200 },
      { name: '/music', path: '/music', expectStatus: 200 },
      { name: '/blog', path: '/blog', expectStatus: 200 },
      { name: '/api/tracks', path: '/api/tracks', expectStatus: 200 },
      {
        name: `MP3 Range 0-${rangeEnd}`,
        path: audio,
        headers: { Range: `bytes=0-${rangeEnd}` },
        expectStatus: 206,
      },
    ];
    for (const t of targets) {
      const res = await fetch(`${origin}${t.path}`, { headers: t.headers });
      await res.arrayBuffer();
      if (res.status !== t.expectStatus)
        throw new Error(`${t.path} answered ${res.status}, expected ${t.expectStatus}`);
    }

    console.log(
      `Home HTML ${homeHtml.length} bytes; baseline file ${Buffer.byteLength(baseline)} bytes; ` +
        `MP3 ${audio} (${audioSize} bytes). ${CONNECTIONS} connections, ${DURATION} s each after a ${WARMUP} s warm-up; ` +
        `the static baseline (${BASELINE_DURATION} s) runs between every two targets.\n`,
    );
    // The machine may be shared with other work: the baseline is measured between every two
    // targets, and each target's ratio uses the mean of the baselines just before and after it.
    const baselineTarget = targets[0]!;
    const results: { target: Target; result: Result; base: number }[] = [];
    await run(origin, baselineTarget, WARMUP);
    let before = await run(origin, baselineTarget, BASELINE_DURATION);
    const baselines: Result[] = [before];
    for (const target of targets.slice(1)) {
      await run(origin, target, WARMUP);
      const result = await run(origin, target, DURATION);
      const after = await run(origin, baselineTarget, BASELINE_DURATION);
      baselines.push(after);
      const base = (before.requests.average + after.requests.average) / 2;
      results.push({ target, result, base });
      process.stdout.write(
        `  ${target.name}: ${Math.round(result.requests.average)} req/s (baseline around it ${Math.round(base)} req/s)\n`,
      );
      before = after;
    }
    const meanBase = baselines.reduce((n, b) => n + b.requests.average, 0) / baselines.length;
    const baselineRow: Result = {
      ...baselines[0]!,
      requests: { ...baselines[0]!.requests, average: meanBase },
      latency: baselines[0]!.latency,
      errors: baselines.reduce((n, b) => n + b.errors, 0),
      timeouts: baselines.reduce((n, b) => n + b.timeouts, 0),
      non2xx: baselines.reduce((n, b) => n + b.non2xx, 0),
    };
    results.unshift({ target: baselineTarget, result: baselineRow, base: meanBase });
    console.log(
      `  static baseline: ${baselines.map((b) => Math.round(b.requests.average)).join(', ')} req/s (mean ${Math.round(meanBase)})`,
    );
    const header = [
      pad('target', 24),
      pad('req/s', 9, true),
      pad('p50 ms', 8, true),
      pad('p99 ms', 8, true),
      pad('errors', 7, true),
      pad('non-2xx', 8, true),
      pad('ratio', 7, true),
      '  bar',
    ].join(' ');
    console.log(`\n${header}\n${'-'.repeat(header.length)}`);
    const bars: Record<string, number> = { '/': 0.25, '/api/tracks': 0.4 };
    for (const { target, result, base } of results) {
      const ratio = result.requests.average / base;
      const errors = result.errors + result.timeouts;
      const bar = bars[target.name];
      const barText =
        bar === undefined ? '' : `≥ ${bar.toFixed(2)} ${ratio >= bar ? 'ok' : 'MISSED'}`;
      if (bar !== undefined && ratio < bar) exitCode = 1;
      if (errors > 0 || result.non2xx > 0) exitCode = 1;
      console.log(
        [
          pad(target.name, 24),
          pad(result.requests.average.toFixed(0), 9, true),
          pad(String(result.latency.p50), 8, true),
          pad(String(result.latency.p99), 8, true),
          pad(String(errors), 7, true),
          pad(String(result.non2xx), 8, true),
          pad(ratio.toFixed(2), 7, true),
          `  ${barText}`,
        ].join(' '),
      );
    }
    // Counting visits (decision 024) costs `/` a little: the same page from a server with
    // ANALYTICS=false, alternated with this one (on, off, on, off) so drift favours neither.
    const counted = await analyticsRatio(origin);
    console.log(
      `\nCounting on / off, \`/\`: ${counted.on.toFixed(0)} / ${counted.off.toFixed(0)} req/s = ${counted.ratio.toFixed(2)} (bar ≥ 0.90 ${counted.ratio >= 0.9 ? 'ok' : 'MISSED'})`,
    );
    if (counted.ratio < 0.9) exitCode = 1;
    console.log(
      exitCode === 0
        ? '\nAll bars met, zero errors.'
        : '\nSome bars were missed or errors occurred.',
    );
  } finally {
    fs.rmSync(BASELINE_FILE, { force: true });
    await server.stop();
  }
  process.exitCode = exitCode;
}

/** `/` with counting on (this server) and off (a second one), alternated, in req/s. */
async function analyticsRatio(
  onOrigin: string,
): Promise<{ on: number; off: number; ratio: number }> {
  const off = await startProdServer({ env: { ANALYTICS: 'false' } });
  try {
    const home: Target = { name: '/', path: '/', expectStatus: 200 };
    await run(off.origin, home, WARMUP);
    const on: number[] = [];
    const offs: number[] = [];
    for (let i = 0; i < 2; i++) {
      on.push((await run(onOrigin, home, DURATION)).requests.average);
      offs.push((await run(off.origin, home, DURATION)).requests.average);
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    return { on: mean(on), off: mean(offs), ratio: mean(on) / mean(offs) };
  } finally {
    await off.stop();
  }
}

main().catch((error: unknown) => {
  fs.rmSync(BASELINE_FILE, { force: true });
  console.error(error);
  process.exitCode = 1;
});
