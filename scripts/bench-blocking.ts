import os from 'node:os';

import { type Browser, chromium } from '@playwright/test';

import { numberOption, option } from './bench-args';
import { median } from './catalogue-lib';
import { type ProdServer, startAbServers } from './prod-server';

/**
 * `npm run bench:blocking -- --base REV [--head REV] [--rounds N] [--pages /,/music]`: how long
 * a page's first visit blocks the browser's main thread, one revision against another,
 * alternated in one run (what Lighthouse's Total Blocking Time measures, without its spread).
 *
 * Each side is a production build (`bench:ab`'s worktrees in .bench-tmp/ab/; without `--head`
 * the other side is this checkout's own build), both servers up with the demo content. Each
 * visit is a fresh browser context with Lighthouse's phone: 412×823 at 1.75×, touch, the CPU
 * slowed 4×. It loads the page, waits for hydration (`data-hydrated`) and 2.5 s more, and adds
 * up the long tasks after the first contentful paint, each beyond its first 50 ms (the
 * `longtask` entries). Pages in turn, one side then the other, the order swapped each round.
 * Printed per page: each side's median and every run (the spread is the noise to compare a
 * difference with), the Chromium version and the load.
 *
 * Chromium: CHROMIUM_PATH, else /usr/bin/chromium (the one the e2e tests use).
 */
const BASE = option('--base');
const HEAD = option('--head');
const ROUNDS = numberOption('--rounds', 8);
const PAGES = (option('--pages') ?? '/,/music,/music/{mix}').split(',');
/** Lighthouse's mobile defaults (moto g power, 4× CPU slowdown). */
const PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true };
const CPU_SLOWDOWN = 4;

/** The demo's first mix, for `/music/{mix}`. */
async function mixPath(server: ProdServer): Promise<string> {
  const tracks = (await (await fetch(`${server.origin}/api/tracks`)).json()) as {
    id: number;
    type: string;
  }[];
  const mix = tracks.find((t) => t.type === 'Mix') ?? tracks[0];
  return `/music/${mix?.id ?? 1}`;
}

/** Blocking time (ms) of one first visit to `path`. */
async function blocking(browser: Browser, server: ProdServer, path: string): Promise<number> {
  const context = await browser.newContext({ ...PHONE, hasTouch: true });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.addInitScript(() => {
      const tasks: [number, number][] = [];
      (window as unknown as { __longTasks: typeof tasks }).__longTasks = tasks;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) tasks.push([e.startTime, e.duration]);
      }).observe({ type: 'longtask', buffered: true });
    });
    await page.goto(`${server.origin}${path}`, { waitUntil: 'load' });
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true', null, {
      timeout: 60_000,
    });
    await page.waitForTimeout(2_500);
    return await page.evaluate(() => {
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
      const tasks = (window as unknown as { __longTasks: [number, number][] }).__longTasks;
      return tasks
        .filter(([start]) => start >= fcp)
        .reduce((sum, [, duration]) => sum + Math.max(0, duration - 50), 0);
    });
  } finally {
    await context.close();
  }
}

async function main() {
  if (!BASE) {
    throw new Error(
      'Usage: npm run bench:blocking -- --base REV [--head REV] [--rounds N] [--pages /,/music]',
    );
  }
  const { labels, servers } = await startAbServers(BASE, HEAD);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  });
  const chromiumVersion = browser.version();
  const runs = new Map<string, { base: number[]; head: number[] }>();
  try {
    // Both idle a moment: the demo's media jobs of the start finish first.
    await new Promise((r) => setTimeout(r, 15_000));
    const pathsOn = async (server: ProdServer) => {
      const mix = await mixPath(server);
      return PAGES.map((p) => p.replace('/music/{mix}', mix));
    };
    const paths = { base: await pathsOn(servers.base), head: await pathsOn(servers.head) };
    for (const page of PAGES) runs.set(page, { base: [], head: [] });
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['base', 'head'] as const) : (['head', 'base'] as const);
      for (const [i, page] of PAGES.entries()) {
        for (const side of order) {
          runs.get(page)![side].push(await blocking(browser, servers[side], paths[side][i]!));
        }
      }
      console.log(`round ${round + 1} of ${ROUNDS} done (${order.join(' then ')})`);
    }
  } finally {
    await browser.close();
    await Promise.all([servers.base.stop(), servers.head.stop()]);
  }
  const load = os.loadavg().map((l) => l.toFixed(1));
  console.log(
    `\nbase: ${labels.base}\nhead: ${labels.head}\nChromium ${chromiumVersion}, CPU slowed ` +
      `${CPU_SLOWDOWN}×, ${PHONE.viewport.width}×${PHONE.viewport.height}; ${ROUNDS} rounds ` +
      `alternated; ${os.cpus().length} CPUs, load ${load.join(' ')}\n`,
  );
  console.log(
    `${'page'.padEnd(16)}${'base ms'.padStart(9)}${'head ms'.padStart(9)}   every run (base | head)`,
  );
  for (const [page, r] of runs) {
    const list = (xs: number[]) => xs.map((x) => Math.round(x)).join(' ');
    console.log(
      `${page.padEnd(16)}${median(r.base).toFixed(0).padStart(9)}${median(r.head).toFixed(0).padStart(9)}` +
        `   ${list(r.base)} | ${list(r.head)}`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
