import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import autocannon, { type Result } from 'autocannon';

import { flag, option } from './bench-args';
import {
  coldRoundTrips,
  mean,
  nodeClientRate,
  type ShapedServer,
  shapeName,
  startShapedServer,
  type StoreShape,
  waitForQuiet,
} from './bench-stores';
import { buildIfNeeded, projectRoot, startProdServer } from './prod-server';

/**
 * `npm run bench [-- --store external] [--latency MS] [--only-latency] [--no-quiet] [--no-analytics]`: throughput of the
 * production build on the seeded demo content, in each shape the site is deployed in.
 *
 * Shapes (scripts/bench-stores.ts): always the embedded store in the app's process; with
 * `--store external` also an external store (`npm run db` as a separate process, the app with
 * MONGODB_URI); with `--latency MS` also that store behind a TCP proxy delaying each direction
 * by MS (an Atlas-like round trip; implies `--store external`). For each shape the production
 * server (server/index.ts, NODE_ENV=production, temporary DATA_DIR/UPLOADS_DIR, SEED=true) is
 * started, and for each target autocannon runs with 50 connections for DURATION seconds (after
 * a short warm-up); it prints requests/s, p50/p99 latency, errors and the ratio to a static
 * file of the same size as the home page's HTML served from public/ by the same server, the
 * baseline measured between every two targets. Then, per page, the database commands and
 * sequential round trips its routes make on cold caches (a write from elsewhere first):
 * commands in flight together count once (`Server-Timing: db`, app/platform/data-version.server.ts).
 *
 * Before measuring, each shape waits until the site is quiet (`waitForQuiet`: the demo's media
 * jobs are writes). The Range target's baseline is a static file of the range's own bytes
 * (autocannon decodes every body as UTF-8, whose cost depends on the bytes); at 256 KB of MP3
 * that decoding bounds autocannon to a few hundred requests/s, so the Range is measured a
 * second time from Node's own HTTP client (which does not decode), alternated with the same
 * static file; both ratios are printed and both have the bar.
 *
 * Options: BENCH_DURATION (seconds, default 10), BENCH_CONNECTIONS (default 50).
 * Bars (decision 039): `/` ≥ 0.80 of the static baseline on the embedded store and ≥ 0.60 on
 * external+latency, `/music` and `/api/tracks` ≥ 0.60 there, the 256 KB Range ≥ 0.80, p99 of
 * `/` under 300 ms on external+latency, at most 3 round trips per page, zero errors; `/` with
 * visit counting on ≥ 0.90 of the same page from a server with ANALYTICS=false (embedded).
 */

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP = 2;
const BASELINE_DURATION = Math.max(3, Math.round(DURATION / 2));
const BASELINE_FILE = path.join(projectRoot, 'public', 'bench-baseline.html');
const HOME_COPY_FILE = path.join(projectRoot, 'public', 'bench-baseline-home.html');
const RANGE_BASELINE_FILE = path.join(projectRoot, 'public', 'bench-baseline-range.mp3');

type Target = {
  name: string;
  path: string;
  headers?: Record<string, string>;
  expectStatus: number;
  /** Its own static baseline (a file of the same size), run just before and after it. */
  baseline?: Target;
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

const LATENCY = option('--latency') === undefined ? null : Number(option('--latency'));
const EXTERNAL = option('--store') === 'external' || LATENCY !== null;
const ANALYTICS_RATIO = !flag('--no-analytics');
/** `--only-latency`: only the external store behind the latency proxy (issue 37's five runs). */
const ONLY_LATENCY = flag('--only-latency');
/** `--no-quiet`: measure at once, while the demo's media jobs still run (their writes). */
const NO_QUIET = flag('--no-quiet');

/** Pages whose round trips are counted (and bounded: at most 3). */
const COUNTED_PAGES = ['/', '/music', '/blog', '/shows', '/gallery', '/about', '/api/tracks'];

type Bars = Record<string, number>;

function barsFor(shape: StoreShape): Bars {
  if (shape.kind === 'embedded') return { '/': 0.8, '/api/tracks': 0.6 };
  if (shape.latencyMs > 0) return { '/': 0.6, '/music': 0.6, '/api/tracks': 0.6 };
  return { '/': 0.6, '/music': 0.6, '/api/tracks': 0.6 };
}

async function main() {
  buildIfNeeded();
  const shapes: StoreShape[] = ONLY_LATENCY && LATENCY ? [] : [{ kind: 'embedded' }];
  if (EXTERNAL && !(ONLY_LATENCY && LATENCY)) shapes.push({ kind: 'external', latencyMs: 0 });
  if (LATENCY !== null && LATENCY > 0) shapes.push({ kind: 'external', latencyMs: LATENCY });
  let exitCode = 0;
  const summary: string[] = [];
  for (const shape of shapes) {
    console.log(`\n=== ${shapeName(shape)}: starting the production server with the demo content…`);
    const shaped = await startShapedServer(shape, { DB_ROUND_TRIP_HEADER: 'true' });
    try {
      const code = await benchShape(shaped, summary);
      if (code !== 0) exitCode = code;
    } finally {
      await shaped.stop();
    }
  }
  console.log(`\nSummary (ratio to the static baseline of the same server, same run):`);
  for (const line of summary) console.log(`  ${line}`);
  console.log(
    exitCode === 0 ? '\nAll bars met, zero errors.' : '\nSome bars were missed or errors occurred.',
  );
  process.exitCode = exitCode;
}

async function benchShape(shaped: ShapedServer, summary: string[]): Promise<number> {
  const { server, shape } = shaped;
  const name = shapeName(shape);
  let exitCode = 0;
  try {
    const { origin } = server;
    if (NO_QUIET) console.log('Not waiting for quiet: the demo media jobs may still be running.');
    else {
      const waited = await waitForQuiet(origin);
      console.log(
        `Quiet (the demo's media jobs done, \`/\` served from the page cache) after ${waited} s.`,
      );
    }
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
    // The home page's own bytes as a static file: the baseline of `/` compressed, as browsers
    // ask for it (both are gzipped per response by the compression middleware; a filler of one
    // repeated line would compress to almost nothing).
    fs.writeFileSync(HOME_COPY_FILE, homeHtml);

    // One seeded MP3 for the Range request.
    const tracks = (await (await fetch(`${origin}/api/tracks`)).json()) as { audioFile: string }[];
    const audio = tracks.find((t) => t.audioFile.startsWith('/uploads/audio/'))?.audioFile;
    if (!audio) throw new Error('No seeded track with an /uploads/audio/ file.');
    const audioSize = Number(
      (await fetch(`${origin}${audio}`, { method: 'HEAD' })).headers.get('content-length'),
    );
    const rangeEnd = Math.min(262_143, audioSize - 1);
    // "Static speed" for audio: a static file holding the range's own bytes, from the same
    // disk. The same bytes, not only the same size: autocannon decodes every body it reads as
    // UTF-8 (`body += chunk`), which costs 3.2 ms for 256 KB of MP3 and 0.2 ms for 256 KB of
    // one repeated ASCII byte on this machine; against such a filler the client, not the
    // server, made the Range look 5 times slower (decision 039, findings of 2026-11-27).
    const rangeBytes = await fetch(`${origin}${audio}`, {
      headers: { Range: `bytes=0-${rangeEnd}` },
    });
    fs.writeFileSync(RANGE_BASELINE_FILE, Buffer.from(await rangeBytes.arrayBuffer()));

    const range: Target = {
      name: `MP3 Range 0-${rangeEnd}`,
      path: audio,
      headers: { Range: `bytes=0-${rangeEnd}` },
      expectStatus: 206,
      baseline: {
        name: `static ${rangeEnd + 1} B`,
        path: '/bench-baseline-range.mp3',
        expectStatus: 200,
      },
    };
    const targets: Target[] = [
      { name: 'static baseline', path: '/bench-baseline.html', expectStatus: 200 },
      { name: '/', path: '/', expectStatus: 200 },
      { name: '/music', path: '/music', expectStatus: 200 },
      { name: '/blog', path: '/blog', expectStatus: 200 },
      { name: '/api/tracks', path: '/api/tracks', expectStatus: 200 },
      {
        name: '/ gzip',
        path: '/',
        headers: { 'Accept-Encoding': 'gzip' },
        expectStatus: 200,
        baseline: {
          name: 'static home copy, gzip',
          path: '/bench-baseline-home.html',
          headers: { 'Accept-Encoding': 'gzip' },
          expectStatus: 200,
        },
      },
      range,
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
        `the static baseline (${BASELINE_DURATION} s) runs between every two targets. ` +
        `Load average ${os
          .loadavg()
          .map((n) => n.toFixed(1))
          .join(' ')}.\n`,
    );
    // The machine may be shared with other work: the baseline is measured between every two
    // targets, and each target's ratio uses the mean of the baselines just before and after it.
    const baselineTarget = targets[0]!;
    const results: { target: Target; result: Result; base: number }[] = [];
    await run(origin, baselineTarget, WARMUP);
    let before = await run(origin, baselineTarget, BASELINE_DURATION);
    const baselines: Result[] = [before];
    for (const target of targets.slice(1)) {
      const own = target.baseline ? await run(origin, target.baseline, BASELINE_DURATION) : null;
      await run(origin, target, WARMUP);
      const result = await run(origin, target, DURATION);
      const ownAfter = target.baseline
        ? await run(origin, target.baseline, BASELINE_DURATION)
        : null;
      const after = await run(origin, baselineTarget, BASELINE_DURATION);
      baselines.push(after);
      const base =
        own && ownAfter
          ? (own.requests.average + ownAfter.requests.average) / 2
          : (before.requests.average + after.requests.average) / 2;
      results.push({ target, result, base });
      process.stdout.write(
        `  ${target.name}: ${Math.round(result.requests.average)} req/s (${target.baseline?.name ?? 'baseline'} around it ${Math.round(base)} req/s)\n`,
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
    const bars = barsFor(shape);
    for (const { target, result, base } of results) {
      const ratio = result.requests.average / base;
      const errors = result.errors + result.timeouts;
      const bar = target === range ? 0.8 : bars[target.name];
      if (target !== baselineTarget)
        summary.push(
          `${pad(name, 16)} ${pad(target.name, 22)} ${ratio.toFixed(2)} (${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms${bar === undefined ? '' : `; bar ${bar.toFixed(2)} ${ratio >= bar ? 'ok' : 'MISSED'}`})`,
        );
      if (target.name === '/' && shape.kind === 'external' && shape.latencyMs > 0) {
        if (result.latency.p99 >= 300) exitCode = 1;
        summary.push(
          `${pad(name, 16)} p99 of / ${result.latency.p99} ms (bar < 300 ms ${result.latency.p99 < 300 ? 'ok' : 'MISSED'})`,
        );
      }
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
    // The Range again from a second client, Node's own, alternated with the same static file:
    // autocannon's figure for 256 KB of MP3 is bounded by its own UTF-8 decoding of the bodies
    // (both the Range and its baseline then measure the client); Node's client is not.
    const viaNode = { range: [] as number[], static: [] as number[] };
    for (let i = 0; i < 2; i++) {
      viaNode.static.push(await nodeClientRate(origin, range.baseline!.path, {}, 200, 4000));
      viaNode.range.push(
        await nodeClientRate(origin, range.path, range.headers ?? {}, range.expectStatus, 4000),
      );
    }
    const nodeRatio = mean(viaNode.range) / mean(viaNode.static);
    console.log(
      `\n${range.name} from Node's http client (keep-alive, ${CONNECTIONS} sockets, 4 s each, alternated): ` +
        `${viaNode.range.map((n) => n.toFixed(0)).join(', ')} req/s against ${range.baseline!.name} ` +
        `${viaNode.static.map((n) => n.toFixed(0)).join(', ')} req/s = ${nodeRatio.toFixed(2)} (load average ${os.loadavg()[0]!.toFixed(1)})`,
    );
    if (nodeRatio < 0.8) exitCode = 1;
    summary.push(
      `${pad(name, 16)} ${pad(range.name, 22)} ${nodeRatio.toFixed(2)} from Node's http client; bar 0.80 ${nodeRatio >= 0.8 ? 'ok' : 'MISSED'}`,
    );
    // Round trips per page on cold caches (at most 3 sequential: decision 039).
    const trips = await coldRoundTrips(shaped, COUNTED_PAGES);
    console.log(`\nDatabase per request on cold caches (${name}):`);
    for (const [page, counted] of trips) {
      const ok = counted.roundTrips <= 3;
      if (!ok) exitCode = 1;
      console.log(
        `  ${pad(page, 14)} ${counted.commands} commands, ${counted.roundTrips} sequential round trips${ok ? '' : ' (bar ≤ 3 MISSED)'}`,
      );
    }
    summary.push(
      `${pad(name, 16)} round trips per page (cold): ${[...trips].map(([p, c]) => `${p} ${c.roundTrips}`).join(', ')}`,
    );
    if (shape.kind === 'embedded' && ANALYTICS_RATIO) {
      // Counting visits (decision 024) costs `/` a little: the same page from a server with
      // ANALYTICS=false, alternated with this one (on, off, on, off) so drift favours neither.
      const counted = await analyticsRatio(origin);
      console.log(
        `\nCounting on / off, \`/\`: ${counted.on.toFixed(0)} / ${counted.off.toFixed(0)} req/s = ${counted.ratio.toFixed(2)} (bar ≥ 0.90 ${counted.ratio >= 0.9 ? 'ok' : 'MISSED'})`,
      );
      summary.push(`${pad(name, 16)} counting on/off for /: ${counted.ratio.toFixed(2)}`);
      if (counted.ratio < 0.9) exitCode = 1;
    }
  } finally {
    fs.rmSync(BASELINE_FILE, { force: true });
    fs.rmSync(RANGE_BASELINE_FILE, { force: true });
    fs.rmSync(HOME_COPY_FILE, { force: true });
    fs.rmSync(HOME_COPY_FILE, { force: true });
  }
  return exitCode;
}

/** `/` with counting on (this server) and off (a second one), alternated, in req/s. */
async function analyticsRatio(
  onOrigin: string,
): Promise<{ on: number; off: number; ratio: number }> {
  const off = await startProdServer({ env: { ANALYTICS: 'false', DB_ROUND_TRIP_HEADER: 'true' } });
  try {
    await waitForQuiet(off.origin);
    const home: Target = { name: '/', path: '/', expectStatus: 200 };
    await run(off.origin, home, WARMUP);
    const on: number[] = [];
    const offs: number[] = [];
    for (let i = 0; i < 2; i++) {
      on.push((await run(onOrigin, home, DURATION)).requests.average);
      offs.push((await run(off.origin, home, DURATION)).requests.average);
    }
    return { on: mean(on), off: mean(offs), ratio: mean(on) / mean(offs) };
  } finally {
    await off.stop();
  }
}

main().catch((error: unknown) => {
  fs.rmSync(BASELINE_FILE, { force: true });
  fs.rmSync(RANGE_BASELINE_FILE, { force: true });
  fs.rmSync(HOME_COPY_FILE, { force: true });
  console.error(error);
  process.exitCode = 1;
});
