import os from 'node:os';

import autocannon from 'autocannon';

import { numberOption, option } from './bench-args';
import { median } from './catalogue-lib';
import { type ProdServer, startAbServers } from './prod-server';

/**
 * `npm run bench:ab -- --base REV [--head REV] [--rounds N]`: one revision against another,
 * alternated in one run, for a change whose cost must be shown (issue 39: "the bench before and
 * after the caching decision, alternated in one run").
 *
 * Each side is a production build: `--base` (and `--head` when given) is checked out into
 * .bench-tmp/ab/<commit> (a git worktree sharing this checkout's node_modules) and built there
 * once; without `--head` the other side is this checkout's own build. Both servers run at once,
 * each on a fresh temporary DATA_DIR with the demo content, and every target is loaded with
 * autocannon on one side, then the other, the order swapped each round (A B, B A, …), so a
 * machine whose load drifts (a shared one) weighs on both alike.
 *
 * Targets: `/` as an anonymous visitor (the page cache), `/` and `/music` with a cookie the site
 * never set (a load balancer's: no page cache, so the router, the loaders through the read
 * cache and the render memo), `/api/tracks`, and a static file (`/favicon.svg`, the floor).
 * Printed: each side's median requests/s, and the median of the per-round ratios head/base
 * with their range (the spread between rounds is the noise to compare a difference with).
 *
 * Options: BENCH_DURATION (seconds per measurement, default 5), BENCH_CONNECTIONS (default 20).
 */
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

const BASE = option('--base');
const HEAD = option('--head');
const ROUNDS = numberOption('--rounds', 4);

type Target = { name: string; path: string; headers?: Record<string, string> };
const FOREIGN_COOKIE = { cookie: 'lb_affinity=7f3a' };
const TARGETS: Target[] = [
  { name: 'static /favicon.svg', path: '/favicon.svg' },
  { name: '/ (page cache)', path: '/' },
  { name: '/ (a foreign cookie)', path: '/', headers: FOREIGN_COOKIE },
  { name: '/music (a foreign cookie)', path: '/music', headers: FOREIGN_COOKIE },
  { name: '/api/tracks', path: '/api/tracks' },
];

async function rate(server: ProdServer, target: Target): Promise<number> {
  const url = `${server.origin}${target.path}`;
  const options = { url, connections: CONNECTIONS, headers: target.headers };
  await autocannon({ ...options, duration: 1 }); // warm-up
  const result = await autocannon({ ...options, duration: DURATION });
  if (result.errors + result.timeouts + result.non2xx > 0) {
    throw new Error(`${url}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
  }
  return result.requests.average;
}

async function main() {
  if (!BASE) throw new Error('Usage: npm run bench:ab -- --base REV [--head REV] [--rounds N]');
  const { labels, servers } = await startAbServers(BASE, HEAD);
  // Both idle a moment: the demo's media jobs of the start finish first.
  await new Promise((r) => setTimeout(r, 15_000));
  const rates = { base: new Map<string, number[]>(), head: new Map<string, number[]>() };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['base', 'head'] as const) : (['head', 'base'] as const);
      for (const target of TARGETS) {
        for (const side of order) {
          const value = await rate(servers[side], target);
          rates[side].set(target.name, [...(rates[side].get(target.name) ?? []), value]);
        }
      }
      console.log(`round ${round + 1} of ${ROUNDS} done (${order.join(' then ')})`);
    }
  } finally {
    await Promise.all([servers.base.stop(), servers.head.stop()]);
  }
  const load = os.loadavg().map((l) => l.toFixed(1));
  console.log(
    `\nbase: ${labels.base}\nhead: ${labels.head}\n${os.cpus().length} CPUs, Node ${process.version}, ` +
      `${CONNECTIONS} connections, ${DURATION} s per measurement, ${ROUNDS} rounds alternated, ` +
      `load ${load.join(' ')}\n`,
  );
  console.log(
    `${'target'.padEnd(28)}${'base req/s'.padStart(12)}${'head req/s'.padStart(12)}` +
      `${'head/base'.padStart(11)}   range of the rounds`,
  );
  for (const target of TARGETS) {
    const a = rates.base.get(target.name)!;
    const b = rates.head.get(target.name)!;
    const ratios = a.map((x, i) => b[i]! / x);
    console.log(
      `${target.name.padEnd(28)}${median(a).toFixed(0).padStart(12)}${median(b).toFixed(0).padStart(12)}` +
        `${median(ratios).toFixed(2).padStart(11)}   ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
