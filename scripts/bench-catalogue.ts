import { MongoClient } from 'mongodb';

import { rssMb, startShapedServer, type StoreShape, waitForQuiet } from './bench-stores';
import {
  type Answer,
  login,
  netCommands,
  ratesBetween,
  request,
  sleep,
  storeStatus,
  waitResponsive,
} from './catalogue-http';
import {
  type Baselines,
  type Counts,
  describeCounts,
  formatTable,
  KINDS,
  type Measured,
  median,
  misses,
  type Options,
  type Page,
  PAGES,
  parseOptions,
  targetCounts,
} from './catalogue-lib';
import { buildIfNeeded } from './prod-server';

/**
 * `npm run bench:catalogue [-- --scale N | --sizes demo,1,10] [--store external|embedded]
 * [--timeout S] [--runs N] [--latency MS] [--pages LIST|none] [--pair A,B]`: the cost of every page as
 * the catalogue grows (issue 37, "A bench of growth"; docs/bench.md). `--pair 1,10`: two
 * sizes side by side, requests alternated (scripts/catalogue-pair.ts).
 *
 * The production build (built first when stale) against an external store (`npm run db` in its
 * own process on a temporary data directory, the app through MONGODB_URI; `--store embedded`:
 * the store in the app's process), seeded with the demo. A member and the admin are made with
 * the app's functions and log in. Then for each size (the demo as seeded, then N× the issue's
 * 1× catalogue, grown in steps on the same store with copies of the demo records,
 * scripts/catalogue-grow.ts), each page is requested once to warm up and RUNS times timed, as
 * the member (public pages, the API, the feeds: no page cache answers a signed-in member) or
 * as the admin (the back office), one request at a time, each bounded by --timeout (a page
 * that does not answer is reported as a timeout, its remaining requests skipped).
 *
 * Per page: median ms, body bytes (decoded), the commands and sequential round trips its
 * routes sent (`Server-Timing: db`, DB_ROUND_TRIP_HEADER: until the answer's headers), and
 * the commands the store answered per request (`top`, per collection, before and after the
 * timed requests, less on each collection the site's idle rate measured at that size: its
 * data-version poll and job queues; it also counts what a streamed body reads after its
 * headers, and it is the same command on mongod). Per size: the store's resident
 * memory (`serverStatus` `mem.resident`) and the app's. Rows that miss a bar of the issue are
 * marked (figures, not an exit code): status 200, HTML ≤ 250 KB (feeds and whole lists
 * excepted), ≤ 3× the demo's time, ≤ 1.5× the previous grown size's, `/admin/newsletter` open,
 * search and page < 500 ms.
 */

let options: Options;
try {
  options = parseOptions(process.argv.slice(2));
} catch (error) {
  console.error(`bench:catalogue: ${(error as Error).message}`);
  process.exit(2);
}

const unknown = options.pages?.filter((path) => !PAGES.some((p) => p.path === path)) ?? [];
if (unknown.length) {
  console.error(
    `bench:catalogue: no such page ${unknown.join(', ')} (pages: ${PAGES.map((p) => p.path).join(' ')})`,
  );
  process.exit(2);
}
const MEASURED = PAGES.filter((p) => options.pages === null || options.pages.includes(p.path));

async function measurePage(
  origin: string,
  page: Page,
  path: string,
  cookie: string,
  client: MongoClient,
  background: Map<string, number>,
): Promise<Measured> {
  const url = `${origin}${path}`;
  const row: Measured = {
    page,
    ms: null,
    timeout: false,
    status: null,
    bytes: null,
    commands: null,
    roundTrips: null,
    storeCommands: null,
  };
  const warm = await request(url, cookie, options.timeoutMs);
  if (!warm) {
    row.timeout = true;
    const waited = await waitResponsive(origin);
    console.log(
      `  ${page.path}: no answer within ${options.timeoutMs / 1000} s (server busy ${waited} s after)`,
    );
    return row;
  }
  const answers: Answer[] = [];
  const before = await storeStatus(client);
  const started = performance.now();
  for (let i = 0; i < options.runs; i++) {
    const answer = await request(url, cookie, options.timeoutMs);
    if (!answer) {
      row.timeout = true;
      break;
    }
    answers.push(answer);
  }
  const elapsed = (performance.now() - started) / 1000;
  const after = await storeStatus(client);
  if (answers.length > 0) {
    row.ms = median(answers.map((a) => a.ms));
    row.status = answers.at(-1)!.status;
    row.bytes = answers.at(-1)!.bytes;
    const counted = answers.map((a) => a.trips).filter((t) => t !== null);
    if (counted.length) {
      row.commands = median(counted.map((t) => t.commands));
      row.roundTrips = median(counted.map((t) => t.roundTrips));
    }
    row.storeCommands = netCommands(before, after, elapsed, background) / answers.length;
  }
  if (row.timeout) {
    const waited = await waitResponsive(origin);
    console.log(
      `  ${page.path}: a timed request got no answer within ${options.timeoutMs / 1000} s (server busy ${waited} s after)`,
    );
  }
  return row;
}

/** "site's idle commands 3.3/s (nightshore.data_versions 1.7, …), subtracted" */
function idle(background: Map<string, number>): string {
  const list = [...background].sort((a, b) => b[1] - a[1]);
  const sum = list.reduce((n, [, r]) => n + r, 0);
  return `site's idle commands ${sum.toFixed(1)}/s (${list.map(([ns, r]) => `${ns.replace(/^nightshore\./, '')} ${r.toFixed(1)}`).join(', ') || 'none'}), subtracted per collection`;
}

async function main() {
  buildIfNeeded();
  if (options.pair) {
    const { runPair } = await import('./catalogue-pair');
    return runPair(options, MEASURED);
  }
  const shape: StoreShape =
    options.store === 'embedded'
      ? { kind: 'embedded' }
      : { kind: 'external', latencyMs: options.latencyMs };
  console.log(
    `bench:catalogue: sizes ${options.sizes.map((s) => s.label).join(', ')}; ${options.store} store` +
      `${options.latencyMs ? ` +${options.latencyMs} ms each way` : ''}; ${options.runs} timed requests per page after one warm-up, each bounded by ${options.timeoutMs / 1000} s.`,
  );
  const shaped = await startShapedServer(shape, { DB_ROUND_TRIP_HEADER: 'true' });
  const { origin, pid } = shaped.server;
  const client = new MongoClient(shaped.uri, { directConnection: true });
  const summary: string[] = [];
  try {
    console.log(`Server up; waiting for the demo's media jobs…`);
    console.log(`Quiet after ${await waitForQuiet(origin)} s.`);
    // The growing module imports the app (its models, its connection): loaded only now.
    const { grow, prepare } = await import('./catalogue-grow');
    const { templates, demo, accounts } = await prepare(shaped.uri);
    const copied = Object.fromEntries(KINDS.map((k) => [k, 0])) as Counts;
    const cookies = {
      member: await login(origin, accounts.member),
      admin: await login(origin, accounts.admin),
    };
    const mix = templates.tracks.find((t) => t.type === 'Mix') ?? templates.tracks[0]!;
    let previous: { label: string; rows: Measured[] } | undefined;
    let demoRows: Measured[] | undefined;
    for (const size of options.sizes) {
      let counts: Counts = { ...demo };
      if (size.scale !== null) {
        counts = targetCounts(size.scale, demo);
        console.log(`\nGrowing to ${size.label}: ${describeCounts(counts)}`);
        const started = Date.now();
        const inserted = await grow(shaped.uri, templates, counts, copied, (l) => console.log(l));
        console.log(
          `  ${inserted.toLocaleString('en-US')} documents in ${((Date.now() - started) / 1000).toFixed(1)} s`,
        );
      }
      // Past every cache's freshness bound, then the site's idle commands per second.
      await sleep(1_500);
      const idleStart = await storeStatus(client);
      const idleFrom = performance.now();
      await sleep(5_000);
      const idleEnd = await storeStatus(client);
      const background = ratesBetween(idleStart, idleEnd, (performance.now() - idleFrom) / 1000);
      const rows: Measured[] = [];
      for (const page of MEASURED) {
        const path = page.path.replace('{mix}', String(mix.id));
        const row = await measurePage(origin, page, path, cookies[page.role], client, background);
        rows.push(row);
        process.stdout.write('.');
      }
      const memory = await storeStatus(client);
      console.log(`\n\n== ${size.label}: ${describeCounts(counts)}`);
      console.log(
        shape.kind === 'external'
          ? `   store RSS ${memory.residentMb} MB (its own process), app RSS ${rssMb(pid)} MB; ${idle(background)}`
          : `   app RSS ${rssMb(pid)} MB with the store in it (serverStatus ${memory.residentMb} MB); ${idle(background)}`,
      );
      const base: Baselines = { scale: size.scale, demo: demoRows, previous };
      console.log(formatTable(rows, base, options.timeoutMs));
      const missed = rows.filter((r) => misses(r, base).length > 0);
      summary.push(
        `${size.label.padEnd(6)} ${shape.kind === 'external' ? `store ${memory.residentMb} MB, app ${rssMb(pid)} MB` : `app with the store ${rssMb(pid)} MB`}; ${missed.length} of ${rows.length} pages miss a bar${missed.length ? `: ${missed.map((r) => r.page.path).join(', ')}` : ''}`,
      );
      if (size.scale === null) demoRows = rows;
      else previous = { label: size.label, rows };
    }
    console.log(`\nSummary:\n${summary.map((l) => `  ${l}`).join('\n')}`);
  } finally {
    await client.close();
    await shaped.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
