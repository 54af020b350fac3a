import { MongoClient } from 'mongodb';

import { rssMb, type ShapedServer, startShapedServer, waitForQuiet } from './bench-stores';
import { type Answer, login, request, storeStatus } from './catalogue-http';
import {
  describeCounts,
  HTML_LIMIT,
  median,
  NEWSLETTER_LIMIT_MS,
  type Options,
  type Page,
  type Size,
  targetCounts,
  VS_GROWN,
} from './catalogue-lib';

/**
 * `npm run bench:catalogue -- --pair 1,10`: two sizes side by side (issue 37, "at 10×, each
 * page within 1.5× of its 1× time"). Growing one store in steps measures each size at a
 * different time, and on a shared machine the load of that moment moves a median by 2× or more.
 * Here two external stores and two production servers run at once, one grown to each size,
 * and every page is requested on both in alternation (A B, B A, A B, …, one request at a time),
 * so the load drifts under both alike. Per page: each side's median, the median of the
 * per-pair ratios B/A with their range (the spread), body sizes and round trips.
 */

type Side = {
  size: Size;
  shaped: ShapedServer;
  client: MongoClient;
  cookies: Record<Page['role'], string>;
  mixId: number;
};

async function startSide(size: Size, log: (line: string) => void): Promise<Side> {
  const shaped = await startShapedServer(
    { kind: 'external', latencyMs: 0 },
    { DB_ROUND_TRIP_HEADER: 'true' },
  );
  const client = new MongoClient(shaped.uri, { directConnection: true });
  await waitForQuiet(shaped.server.origin);
  const { grow, prepare } = await import('./catalogue-grow');
  const { templates, demo, accounts } = await prepare(shaped.uri);
  const counts = targetCounts(size.scale!, demo);
  log(`Growing store ${size.label}: ${describeCounts(counts)}`);
  const started = Date.now();
  const copied = Object.fromEntries(Object.keys(demo).map((k) => [k, 0])) as typeof demo;
  const inserted = await grow(shaped.uri, templates, counts, copied, log);
  log(
    `  ${inserted.toLocaleString('en-US')} documents in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  const mix = templates.tracks.find((t) => t.type === 'Mix') ?? templates.tracks[0]!;
  return {
    size,
    shaped,
    client,
    mixId: Number(mix.id),
    cookies: {
      member: await login(shaped.server.origin, accounts.member),
      admin: await login(shaped.server.origin, accounts.admin),
    },
  };
}

type PairRow = {
  page: Page;
  a: Answer[];
  b: Answer[];
  /** B's time over A's, one per alternated pair. */
  ratios: number[];
  timeout: boolean;
};

async function measurePair(page: Page, a: Side, b: Side, options: Options): Promise<PairRow> {
  const url = (side: Side) =>
    `${side.shaped.server.origin}${page.path.replace('{mix}', String(side.mixId))}`;
  const once = (side: Side) => request(url(side), side.cookies[page.role], options.timeoutMs);
  const row: PairRow = { page, a: [], b: [], ratios: [], timeout: false };
  if (!(await once(a)) || !(await once(b))) return { ...row, timeout: true };
  for (let i = 0; i < options.runs; i++) {
    const first = i % 2 === 0 ? a : b;
    const second = first === a ? b : a;
    const one = await once(first);
    const two = await once(second);
    if (!one || !two) return { ...row, timeout: true };
    const [ra, rb] = first === a ? [one, two] : [two, one];
    row.a.push(ra);
    row.b.push(rb);
    row.ratios.push(rb.ms / ra.ms);
  }
  return row;
}

/** The bars of issue 37 that side B's row misses against side A. */
export function pairMisses(row: PairRow): string[] {
  if (row.timeout) return ['timeout'];
  const out: string[] = [];
  const last = row.b.at(-1)!;
  if (last.status !== 200) out.push(`status ${last.status}`);
  if (row.page.complete) return out;
  if (last.bytes > HTML_LIMIT) out.push('> 250 KB');
  if (row.page.newsletter && median(row.b.map((x) => x.ms)) >= NEWSLETTER_LIMIT_MS)
    out.push('≥ 500 ms');
  if (median(row.ratios) > VS_GROWN) out.push(`> ${VS_GROWN}×`);
  return out;
}

function formatPairTable(rows: readonly PairRow[], a: Size, b: Size): string {
  const header = [
    'page'.padEnd(28),
    `${a.label} ms`.padStart(9),
    `${b.label} ms`.padStart(9),
    `${b.label}/${a.label} (range)`.padStart(22),
    `${a.label} KB`.padStart(9),
    `${b.label} KB`.padStart(9),
    'trips'.padStart(6),
    '  misses',
  ].join(' ');
  const lines = [header, '-'.repeat(header.length + 10)];
  const ms = (xs: Answer[]) => {
    const m = median(xs.map((x) => x.ms));
    return m.toFixed(m < 100 ? 1 : 0);
  };
  const kb = (xs: Answer[]) => ((xs.at(-1)?.bytes ?? 0) / 1024).toFixed(1);
  const trips = (xs: Answer[]) => xs.at(-1)?.trips?.roundTrips ?? '-';
  for (const row of rows) {
    if (row.timeout) {
      lines.push(`${row.page.path.padEnd(28)} timeout`);
      continue;
    }
    const sorted = [...row.ratios].sort((x, y) => x - y);
    const ratio = `${median(row.ratios).toFixed(2)}× (${sorted[0]!.toFixed(2)}–${sorted.at(-1)!.toFixed(2)})`;
    const missed = pairMisses(row);
    lines.push(
      [
        row.page.path.padEnd(28),
        ms(row.a).padStart(9),
        ms(row.b).padStart(9),
        ratio.padStart(22),
        kb(row.a).padStart(9),
        kb(row.b).padStart(9),
        `${trips(row.a)}/${trips(row.b)}`.padStart(6),
        missed.length ? `  MISSED: ${missed.join(', ')}` : row.page.complete ? '  (no bar)' : '',
      ].join(' '),
    );
  }
  return lines.join('\n');
}

export async function runPair(options: Options, pages: readonly Page[]): Promise<void> {
  const [sizeA, sizeB] = options.pair!;
  const log = (line: string) => console.log(line);
  console.log(
    `bench:catalogue --pair: ${sizeA.label} and ${sizeB.label} side by side (two external stores, two servers); ${options.runs} alternated pairs per page after one warm-up each.`,
  );
  const sides: Side[] = [];
  try {
    // One after the other: growing is the heavy part, and each grows through the app's modules.
    sides.push(await startSide(sizeA, log));
    sides.push(await startSide(sizeB, log));
    const [a, b] = sides as [Side, Side];
    const rows: PairRow[] = [];
    for (const page of pages) {
      rows.push(await measurePair(page, a, b, options));
      process.stdout.write('.');
    }
    console.log(`\n\nLoad average at the end: ${(await import('node:os')).loadavg().join(', ')}`);
    for (const side of sides) {
      const status = await storeStatus(side.client);
      console.log(
        `  ${side.size.label}: store RSS ${status.residentMb} MB, app RSS ${rssMb(side.shaped.server.pid)} MB`,
      );
    }
    console.log(formatPairTable(rows, sizeA, sizeB));
    const missed = rows.filter((r) => pairMisses(r).length > 0);
    console.log(
      `\n${missed.length} of ${rows.length} pages miss a bar${missed.length ? `: ${missed.map((r) => r.page.path).join(', ')}` : ''}`,
    );
  } finally {
    for (const side of sides) {
      await side.client.close();
      await side.shaped.stop();
    }
  }
}
