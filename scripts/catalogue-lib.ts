import { readOption } from './bench-args';

/**
 * The pure parts of `npm run bench:catalogue` (scripts/bench-catalogue.ts): its options, the
 * sizes of a grown catalogue, the copies of the demo records, the statistics and the table with
 * its bars (issue 37, "How we know it works").
 */

/** The catalogue of issue 37 at 1×: what a collective has after years of use. */
export const ONE_X = {
  tracks: 2_000,
  posts: 600,
  shows: 400,
  gallery: 800,
  subscribers: 50_000,
  users: 3_000,
  messages: 5_000,
} as const;

export type Kind = keyof typeof ONE_X;
export const KINDS = Object.keys(ONE_X) as Kind[];
export type Counts = Record<Kind, number>;

/** A size to measure: the demo catalogue as seeded, or N times ONE_X. */
export type Size = { label: string; scale: number | null };

export type Options = {
  sizes: Size[];
  store: 'external' | 'embedded';
  /** Each request's bound, ms: a page that does not answer within it is reported as a timeout. */
  timeoutMs: number;
  /** Timed requests per page and role (after one warm-up). */
  runs: number;
  /** Extra latency each way on the external store (ms), as `npm run bench -- --latency`. */
  latencyMs: number;
  /** Only these pages (as listed by the bench, `{mix}` for the mix page); null: all. */
  pages: string[] | null;
  /**
   * `--pair 1,10`: two stores side by side, one at each size, every page requested on both in
   * alternation (scripts/catalogue-pair.ts); null: one store grown in steps through `sizes`.
   */
  pair: [Size, Size] | null;
};

function parseSize(text: string): Size {
  const t = text.trim().toLowerCase();
  if (t === 'demo') return { label: 'demo', scale: null };
  const scale = Number(t.replace(/x$/, ''));
  if (!Number.isFinite(scale) || scale <= 0) throw new Error(`not a size: "${text}"`);
  return { label: `${scale}×`, scale };
}

/**
 * `--scale N` (demo then N×), `--sizes demo,1,10` (default: the demo, 1× and 10×),
 * `--store external|embedded`, `--timeout S` (default 30), `--runs N` (default 5),
 * `--latency MS`, `--pages /,/admin/newsletter` (some pages only; `none`: grow and print the
 * memory). Grown sizes must increase: the store grows in steps, never shrinks.
 */
export function parseOptions(argv: readonly string[]): Options {
  const value = (name: string): string | undefined => readOption(argv, name);
  const scale = value('--scale');
  const list = value('--sizes');
  if (scale !== undefined && list !== undefined) throw new Error('give --scale or --sizes');
  const sizes = (list ?? (scale !== undefined ? `demo,${scale}` : 'demo,1,10'))
    .split(',')
    .map(parseSize);
  const grown = sizes.map((s) => s.scale).filter((s): s is number => s !== null);
  if (sizes.findIndex((s) => s.scale === null) > 0)
    throw new Error('demo can only be the first size');
  if (grown.some((s, i) => i > 0 && s <= grown[i - 1]!))
    throw new Error('sizes must increase (the store grows in steps)');
  const store = value('--store') ?? 'external';
  if (store !== 'external' && store !== 'embedded')
    throw new Error('--store must be external or embedded');
  const number = (name: string, fallback: number) => {
    const n = Number(value(name) ?? fallback);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number`);
    return n;
  };
  const latencyMs = number('--latency', 0);
  const pages = value('--pages');
  if (latencyMs > 0 && store === 'embedded') throw new Error('--latency needs the external store');
  const pairText = value('--pair');
  let pair: [Size, Size] | null = null;
  if (pairText !== undefined) {
    if (list !== undefined || scale !== undefined)
      throw new Error('give --pair or --sizes/--scale');
    if (store === 'embedded') throw new Error('--pair needs the external store (two of them)');
    const both = pairText.split(',').map(parseSize);
    const [a, b] = both;
    if (both.length !== 2 || !a || !b || a.scale === null || b.scale === null || a.scale >= b.scale)
      throw new Error('--pair needs two grown sizes, the smaller first (e.g. 1,10)');
    pair = [a, b];
  }
  return {
    sizes,
    store,
    timeoutMs: number('--timeout', 30) * 1000,
    runs: Math.max(1, Math.round(number('--runs', 5))),
    latencyMs,
    pages: pages === undefined ? null : pages === 'none' ? [] : pages.split(','),
    pair,
  };
}

/** How many records of each kind a catalogue of `scale`× holds (at least the demo's). */
export function targetCounts(scale: number, demo: Counts): Counts {
  const out = {} as Counts;
  for (const kind of KINDS) out[kind] = Math.max(demo[kind], Math.round(ONE_X[kind] * scale));
  return out;
}

/** A fraction in [0, 1) that looks random and is the same for the same `n` and `salt`. */
export function spread(n: number, salt = 0): number {
  let h = Math.imul(n + 1, 0x9e3779b1) ^ Math.imul(salt + 7, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  h ^= h >>> 12;
  return (h >>> 0) / 2 ** 32;
}

const DAY = 86_400_000;
/** Copies' `createdAt` spread over the last six years. */
const SPREAD_DAYS = 6 * 365;
/** Shows ahead: a fixed number (a collective's calendar holds months, not years, ahead). */
export const FUTURE_SHOWS = 24;

/** When copy `n` was made: within the last six years, never in the future. */
export function createdAtOf(n: number, now: number): Date {
  return new Date(now - DAY - Math.floor(spread(n, 1) * SPREAD_DAYS * DAY));
}

/** YYYY-MM-DD of `today` (YYYY-MM-DD) plus `days`. */
export function addDays(today: string, days: number): string {
  const d = new Date(`${today}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A stored record, as the driver reads it (no `_id`: the store gives each copy its own). */
export type Doc = Record<string, unknown>;

/** What makes copy `n` of a record its own: its serial id, the day, the clock. */
export type CopyContext = { n: number; id: number; now: number; today: string; uuid: string };

function base(template: Doc, c: CopyContext): Doc {
  const { _id: _ignored, ...rest } = template;
  const at = createdAtOf(c.n, c.now);
  return { ...rest, id: c.id, createdAt: at, updatedAt: at };
}

/** The email `local@domain` made unique for copy `n`: `local+n@domain`. */
export function uniqueEmail(email: string, n: number): string {
  const at = email.lastIndexOf('@');
  return at === -1 ? `${email}+${n}` : `${email.slice(0, at)}+${n}${email.slice(at)}`;
}

/**
 * Copy `n` of a demo record of that kind: the same content, its own id (and slug, email,
 * username, podcast GUID), a `createdAt` in the last six years. Tracks: one in eight for
 * members only, none featured (the demo's few featured stay the featured). Shows: the first
 * FUTURE_SHOWS copies ahead within 180 days, the rest in the last ten years.
 */
export function copyOf(kind: Kind, template: Doc, c: CopyContext): Doc {
  const doc = base(template, c);
  switch (kind) {
    case 'tracks':
      return {
        ...doc,
        featured: false,
        visibility: c.n % 8 === 3 ? 'members' : 'public',
        publicAt: null,
        podcastGuid: `urn:uuid:${c.uuid}`,
      };
    case 'posts':
      return { ...doc, slug: `${String(template.slug)}-${c.n}` };
    case 'shows': {
      const days =
        c.n < FUTURE_SHOWS
          ? 1 + Math.floor(spread(c.n, 2) * 180)
          : -1 - Math.floor(spread(c.n, 2) * 3650);
      return { ...doc, date: addDays(c.today, days), guestListCount: 0 };
    }
    case 'subscribers': {
      const email = uniqueEmail(String(template.email), c.n);
      return { ...doc, email, emailLower: email.toLowerCase() };
    }
    case 'users': {
      const username = `listener${c.n}`;
      const { email: _e, emailConfirmedAt: _c, pendingEmail: _p, ...rest } = doc;
      return { ...rest, username, usernameLower: username, isAdmin: false };
    }
    case 'gallery':
    case 'messages':
      return doc;
  }
}

// ---------------------------------------------------------------------------------------------
// Figures

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** A page of the bench: who requests it and which bars apply. */
export type Page = {
  path: string;
  role: 'member' | 'admin';
  /** Feeds, sitemaps and the whole API list: complete by design, no size bar. */
  complete?: boolean;
  /** `/admin/newsletter` open/search/page: < 500 ms at 10× (500,000 subscribers). */
  newsletter?: boolean;
};

/** The pages the bench requests, in this order (`{mix}`: the demo's first mix). */
export const PAGES: Page[] = [
  { path: '/', role: 'member' },
  { path: '/music', role: 'member' },
  { path: '/music?page=2', role: 'member' },
  { path: '/music?q=boardwalk', role: 'member' },
  { path: '/blog', role: 'member' },
  { path: '/gallery', role: 'member' },
  { path: '/shows', role: 'member' },
  { path: '/music/{mix}', role: 'member' },
  { path: '/api/tracks?limit=20', role: 'member' },
  { path: '/api/tracks', role: 'member', complete: true },
  { path: '/podcast.xml', role: 'member', complete: true },
  { path: '/sitemap.xml', role: 'member', complete: true },
  { path: '/admin', role: 'admin' },
  { path: '/admin/tracks', role: 'admin' },
  { path: '/admin/gallery', role: 'admin' },
  { path: '/admin/blog', role: 'admin' },
  { path: '/admin/shows', role: 'admin' },
  { path: '/admin/messages', role: 'admin' },
  { path: '/admin/newsletter', role: 'admin', newsletter: true },
  { path: '/admin/newsletter?q=priya', role: 'admin', newsletter: true },
  { path: '/admin/newsletter?page=3', role: 'admin', newsletter: true },
];

/** What one page measured at one size. */
export type Measured = {
  page: Page;
  /** Median ms of the timed requests; null when they did not answer (see `timeout`). */
  ms: number | null;
  timeout: boolean;
  status: number | null;
  bytes: number | null;
  /** Commands and sequential round trips the routes sent (`Server-Timing: db`), median. */
  commands: number | null;
  roundTrips: number | null;
  /** Commands the store answered per request, net of the background's. */
  storeCommands: number | null;
};

export const HTML_LIMIT = 250 * 1024;
export const NEWSLETTER_LIMIT_MS = 500;
export const VS_DEMO = 3;
export const VS_GROWN = 1.5;

/** What a size is compared with: the demo's figures and the previous grown size's. */
export type Baselines = {
  /** This size's scale (null: the demo itself). */
  scale: number | null;
  demo?: readonly Measured[];
  previous?: { label: string; rows: readonly Measured[] };
};

const samePage = (rows: readonly Measured[] | undefined, row: Measured) =>
  rows?.find((r) => r.page.path === row.page.path);

/**
 * The bars one row misses: status 200; HTML ≤ 250 KB (feeds and whole lists excepted); the
 * newsletter under 500 ms; up to 1×, at most 3× the demo's time; at most 1.5× the previous
 * grown size's time (10× against 1×: the cost does not grow with the catalogue).
 */
export function misses(row: Measured, base: Baselines): string[] {
  const out: string[] = [];
  if (row.timeout) out.push('timeout');
  else if (row.status !== 200) out.push(`status ${row.status ?? '?'}`);
  if (!row.page.complete && row.bytes !== null && row.bytes > HTML_LIMIT) out.push('> 250 KB');
  if (row.page.newsletter && row.ms !== null && row.ms >= NEWSLETTER_LIMIT_MS) out.push('≥ 500 ms');
  if (row.page.complete) return out;
  const vsDemo = ratioTo(row, samePage(base.demo, row));
  if (base.scale !== null && base.scale <= 1 && vsDemo !== null && vsDemo > VS_DEMO)
    out.push(`> ${VS_DEMO}× demo`);
  const vsPrevious = ratioTo(row, samePage(base.previous?.rows, row));
  if (vsPrevious !== null && vsPrevious > VS_GROWN)
    out.push(`> ${VS_GROWN}× ${base.previous!.label}`);
  return out;
}

/** This row's time over the other size's; null when either has none. */
export function ratioTo(row: Measured, other: Measured | undefined): number | null {
  if (!other || row.ms === null || other.ms === null || other.ms <= 0) return null;
  return row.ms / other.ms;
}

const kb = (bytes: number) =>
  (bytes / 1024).toLocaleString('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 });

/** The table of one size: one row per page, with its time against the demo's and the previous. */
export function formatTable(rows: readonly Measured[], base: Baselines, timeoutMs: number): string {
  const header = [
    'page'.padEnd(28),
    'member ms'.padStart(10),
    'admin ms'.padStart(10),
    'body KB'.padStart(10),
    'cmds'.padStart(5),
    'trips'.padStart(6),
    'store/req'.padStart(10),
    'vs demo'.padStart(8),
    `vs ${base.previous?.label ?? '-'}`.padStart(8),
    '  misses',
  ].join(' ');
  const lines = [header, '-'.repeat(header.length + 10)];
  const times = (r: number | null) => (r === null ? '' : `${r.toFixed(2)}×`);
  for (const row of rows) {
    const time = row.timeout
      ? `>${timeoutMs / 1000}s`
      : row.ms === null
        ? '-'
        : row.ms.toFixed(row.ms < 100 ? 1 : 0);
    const missed = misses(row, base);
    const show = (n: number | null, width: number) =>
      (n === null ? '-' : String(n)).padStart(width);
    lines.push(
      [
        row.page.path.padEnd(28),
        (row.page.role === 'member' ? time : '').padStart(10),
        (row.page.role === 'admin' ? time : '').padStart(10),
        (row.bytes === null ? '-' : kb(row.bytes)).padStart(10),
        show(row.commands, 5),
        show(row.roundTrips, 6),
        (row.storeCommands === null ? '-' : row.storeCommands.toFixed(1)).padStart(10),
        times(base.scale === null ? null : ratioTo(row, samePage(base.demo, row))).padStart(8),
        times(ratioTo(row, samePage(base.previous?.rows, row))).padStart(8),
        missed.length ? `  MISSED: ${missed.join(', ')}` : row.page.complete ? '  (no bar)' : '',
      ].join(' '),
    );
  }
  return lines.join('\n');
}

/** "2,000 tracks, 600 posts, …" */
export function describeCounts(counts: Counts): string {
  return KINDS.map((k) => `${counts[k].toLocaleString('en-US')} ${k}`).join(', ');
}
