import fs from 'node:fs';

import { adminSession, buildIfNeeded, startProdServer } from './prod-server';
import { importTool } from './tools';

/**
 * `npm run lighthouse`: Lighthouse 12 in mobile emulation (its default) against the production
 * build on the seeded demo content, on every public page (/, /music, /gallery, /blog, one blog
 * post, the demo mix's track page, /shows, /about, /contact), each beside **the floor**: a one-paragraph static page served
 * by the same server, measured by the same browser in the same run, alternating with the page
 * (page, floor, page, floor…), so that what this machine and this Chromium build cost is seen
 * apart from what our pages cost (issue 19). Prints the four category scores, the performance
 * score and Total Blocking Time beside the floor's with the difference, the Chromium version,
 * and every audit that keeps a category under its bar.
 *
 * Chromium: CHROMIUM_PATH, else /usr/bin/chromium (the one the e2e tests use).
 * Bars: performance within 5 points of the floor's, TBT within 150 ms of the floor's,
 * Accessibility, Best Practices and SEO 100. The embed of the demo mix (`/embed/tracks/{id}`,
 * decision 038) has its own bars: performance within 2 points of the floor's and Accessibility
 * 100 (it is `noindex` by design, so SEO is shown, not barred).
 * LIGHTHOUSE_ADMIN=1 also logs in as an administrator and checks Accessibility 100 on the
 * dashboard, tracks, newsletter, settings and one dialog route.
 * One unreported run of / first warms the freshly started browser.
 * LIGHTHOUSE_RUNS=n (default 3): each page is measured n times and the run with the median
 * Performance score is reported (Lighthouse's own advice for its run-to-run variance); every
 * run's score is printed too.
 * LIGHTHOUSE_REPORT_DIR=dir also writes each page's reported run (JSON) there, to diagnose.
 *
 * Lighthouse is not in package.json (it and Puppeteer, OpenTelemetry and Sentry came to 180 MB
 * of every install): the first run installs it into tools/lighthouse from that folder's lock
 * (scripts/tools.ts).
 */

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];
const BARS: Record<Exclude<Category, 'performance'>, number> = {
  accessibility: 100,
  'best-practices': 100,
  seo: 100,
};
/** Performance: at most this many points under the floor's score; TBT at most this much over. */
const PERF_MARGIN = 5;
const TBT_MARGIN_MS = 150;
const FLOOR_PATH = '/lighthouse-floor.html';
/** The embed's bars (decision 038): closer to the floor, and only performance and a11y. */
const EMBED_PERF_MARGIN = 2;
const isEmbedPage = (page: string) => page.startsWith('/embed/');
const FLOOR_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="The floor of a Lighthouse run: one static paragraph."><title>Floor</title></head>
<body><main><h1>Floor</h1><p>One paragraph of static text, served by the same server as the site.</p></main></body></html>
`;

function chromiumPath(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((p): p is string => Boolean(p && fs.existsSync(p)));
}

/** The part of Lighthouse's result (its `lhr`) this script reads. */
type LhrResult = {
  runtimeError?: { code: string; message: string };
  categories: Partial<
    Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>
  >;
  audits: Partial<
    Record<
      string,
      {
        title: string;
        score: number | null;
        scoreDisplayMode: string;
        displayValue?: string;
        numericValue?: number;
      }
    >
  >;
};

/** The part of Lighthouse's and chrome-launcher's API this script uses (tools/lighthouse). */
type LighthouseTool = {
  lighthouse: (
    url: string,
    flags: {
      port: number;
      output: 'json';
      logLevel: 'error';
      onlyCategories: string[];
      extraHeaders?: Record<string, string>;
    },
  ) => Promise<{ lhr: LhrResult } | undefined>;
  chromeLauncher: {
    launch: (options: {
      chromePath?: string;
      chromeFlags: string[];
    }) => Promise<{ port: number; kill: () => void }>;
  };
};

const { lighthouse, chromeLauncher } = await importTool<LighthouseTool>('lighthouse');

type Failure = {
  category: Category;
  id: string;
  title: string;
  score: number | null;
  display?: string;
};

/** One Lighthouse run; a trace can fail to record (NO_NAVSTART and the like): up to 3 tries. */
async function measure(
  port: number,
  origin: string,
  page: string,
  options: { categories?: readonly Category[]; cookie?: string } = {},
): Promise<LhrResult> {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(`${origin}${page}`, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...(options.categories ?? CATEGORIES)],
      ...(options.cookie ? { extraHeaders: { Cookie: options.cookie } } : {}),
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${page}`);
    if (!result.lhr.runtimeError) return result.lhr;
    if (attempt === 3)
      throw new Error(
        `${page}: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`,
      );
  }
}

const perfOf = (r: LhrResult) => Math.round((r.categories.performance?.score ?? 0) * 100);
const tbtOf = (r: LhrResult) => Math.round(r.audits['total-blocking-time']?.numericValue ?? 0);
const median = (xs: LhrResult[]) =>
  [...xs].sort((a, b) => perfOf(a) - perfOf(b))[Math.floor((xs.length - 1) / 2)]!;

/** The audits that keep a category under its mark. */
function failuresOf(lhr: LhrResult, categories: readonly Category[]): Failure[] {
  const failures: Failure[] = [];
  for (const category of categories) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (!audit || ref.weight === 0) continue;
      if (['notApplicable', 'informative', 'manual'].includes(audit.scoreDisplayMode)) continue;
      if (audit.score !== null && audit.score >= (category === 'performance' ? 0.9 : 1)) continue;
      failures.push({
        category,
        id: ref.id,
        title: audit.title,
        score: audit.score,
        display: audit.displayValue,
      });
    }
  }
  return failures;
}

async function main() {
  buildIfNeeded();
  fs.writeFileSync(`public${FLOOR_PATH}`, FLOOR_HTML);
  console.log('Starting the production server with the demo content…');
  const server = await startProdServer();
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath(),
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  let exitCode = 0;
  try {
    const version = (await (
      await fetch(`http://127.0.0.1:${chrome.port}/json/version`)
    ).json()) as {
      Browser: string;
    };
    const posts = (await (await fetch(`${server.origin}/api/blog`)).json()) as {
      slug: string;
      locked?: boolean;
    }[];
    const post = posts.find((p) => !p.locked);
    if (!post) throw new Error('No seeded blog post.');
    // A mix's track page (decision 034): the demo mix, with its tracklist.
    const tracks = (await (await fetch(`${server.origin}/api/tracks`)).json()) as {
      id: number;
      type: string;
      locked?: boolean;
    }[];
    const mix = tracks.find((t) => t.type === 'Mix' && !t.locked);
    if (!mix) throw new Error('No seeded mix.');
    const allPages = [
      '/',
      '/music',
      '/gallery',
      '/blog',
      `/blog/${post.slug}`,
      `/music/${mix.id}`,
      `/embed/tracks/${mix.id}`,
      '/shows',
      '/about',
      '/contact',
    ];
    // LIGHTHOUSE_PAGES=/,/music measures only those (while working on a page); `{mix}` stands
    // for the demo mix's id (LIGHTHOUSE_PAGES=/music,/music/{mix}).
    const only = process.env.LIGHTHOUSE_PAGES?.split(',').map((p) =>
      p.trim().replace('{mix}', String(mix.id)),
    );
    const pages = only ? allPages.filter((p) => only.includes(p)) : allPages;
    // Warm the server (first renders, image derivatives in the OS cache).
    for (const page of [...pages, FLOOR_PATH])
      await (await fetch(`${server.origin}${page}`)).arrayBuffer();
    // Warm the browser: the first navigation of a freshly started Chromium pays its one-time
    // start-up costs (font configuration, code caches, the GPU process) inside the page's
    // trace, which a visitor's long-running browser does not. One unreported run.
    const warm = await measure(chrome.port, server.origin, '/');
    console.log(
      `  ${version.Browser}; warm-up run of /: performance ${perfOf(warm)} (not reported)`,
    );

    type Row = {
      page: string;
      lhr: LhrResult;
      floor: LhrResult;
      scores: Record<Category, number>;
      failures: Failure[];
    };
    const rows: Row[] = [];
    const runs = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));
    for (const page of pages) {
      const lhrs: LhrResult[] = [];
      const floors: LhrResult[] = [];
      for (let run = 0; run < runs; run++) {
        lhrs.push(await measure(chrome.port, server.origin, page));
        floors.push(
          await measure(chrome.port, server.origin, FLOOR_PATH, { categories: ['performance'] }),
        );
      }
      const lhr = median(lhrs);
      const floor = median(floors);
      console.log(
        `  ${page}: performance ${lhrs.map(perfOf).join(', ')} / floor ${floors.map(perfOf).join(', ')} (run order; medians reported)`,
      );
      const reportDir = process.env.LIGHTHOUSE_REPORT_DIR;
      if (reportDir) {
        fs.mkdirSync(reportDir, { recursive: true });
        const name = page === '/' ? 'home' : page.slice(1).replaceAll('/', '_');
        fs.writeFileSync(`${reportDir}/${name}.json`, JSON.stringify(lhr, null, 1));
      }
      const scores = Object.fromEntries(
        CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]),
      ) as Record<Category, number>;
      const barred = isEmbedPage(page) ? (['accessibility'] as const) : CATEGORIES;
      rows.push({ page, lhr, floor, scores, failures: failuresOf(lhr, barred) });
    }

    const header = [
      'page'.padEnd(36),
      'perf',
      'floor',
      ' diff',
      '  TBT ms',
      'floor TBT',
      '  diff',
      'a11y',
      'best',
      ' seo',
    ].join('  ');
    console.log(`\n${header}\n${'-'.repeat(header.length)}`);
    for (const row of rows) {
      const perf = perfOf(row.lhr);
      const floorPerf = perfOf(row.floor);
      const tbt = tbtOf(row.lhr);
      const floorTbt = tbtOf(row.floor);
      const embed = isEmbedPage(row.page);
      const perfOk = perf >= floorPerf - (embed ? EMBED_PERF_MARGIN : PERF_MARGIN);
      const tbtOk = tbt <= floorTbt + TBT_MARGIN_MS;
      const mark = (ok: boolean) => {
        if (!ok) exitCode = 1;
        return ok ? ' ' : '!';
      };
      console.log(
        [
          row.page.padEnd(36),
          `${String(perf).padStart(3)}${mark(perfOk)}`,
          String(floorPerf).padStart(5),
          String(perf - floorPerf).padStart(5),
          `${String(tbt).padStart(7)}${mark(tbtOk)}`,
          String(floorTbt).padStart(9),
          String(tbt - floorTbt).padStart(6),
          ...(['accessibility', 'best-practices', 'seo'] as const).map(
            (c) =>
              `${String(row.scores[c]).padStart(3)}${mark(row.scores[c] >= BARS[c] || (embed && c !== 'accessibility'))}`,
          ),
        ].join('  '),
      );
    }

    if (process.env.LIGHTHOUSE_ADMIN) {
      const cookie = await adminSession(server, 'lighthouse-admin');
      console.log('\nadmin page                            a11y');
      for (const page of [
        '/admin',
        '/admin/tracks',
        '/admin/newsletter',
        '/admin/settings',
        '/admin/tracks/new',
      ]) {
        const lhr = await measure(chrome.port, server.origin, page, {
          categories: ['accessibility'],
          cookie,
        });
        const score = Math.round((lhr.categories.accessibility?.score ?? 0) * 100);
        if (score < 100) exitCode = 1;
        console.log(`${page.padEnd(36)}  ${String(score).padStart(3)}${score < 100 ? '!' : ''}`);
        const failures = failuresOf(lhr, ['accessibility']);
        if (failures.length > 0)
          rows.push({
            page,
            lhr,
            floor: lhr,
            scores: { performance: 100, accessibility: score, 'best-practices': 100, seo: 100 },
            failures,
          });
      }
    }

    const failing = rows.filter((r) => r.failures.length > 0);
    if (failing.length > 0) {
      console.log('\nAudits below their mark:');
      for (const row of failing) {
        for (const f of row.failures) {
          const score = f.score === null ? 'n/a' : f.score.toFixed(2);
          console.log(
            `  ${row.page} [${f.category}] ${f.id} (${score})${f.display ? ` ${f.display}` : ''}: ${f.title}`,
          );
        }
      }
    }
    console.log(
      `\nBars: performance within ${PERF_MARGIN} points of the floor, TBT within ${TBT_MARGIN_MS} ms of the floor's, accessibility, best practices and SEO 100: ${exitCode === 0 ? 'all met' : 'some missed (marked !)'}.`,
    );
  } finally {
    chrome.kill();
    await server.stop();
    fs.rmSync(`public${FLOOR_PATH}`, { force: true });
  }
  process.exitCode = exitCode;
}

main().catch((error: unknown) => {
  fs.rmSync(`public${FLOOR_PATH}`, { force: true });
  console.error(error);
  process.exitCode = 1;
});
