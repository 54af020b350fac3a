import type { BlogPostJSON, ShowJSON } from '~/types/entities';
import { MEMBERS_ONLY } from '~/utils/access';
import { httpDate, icsUtcStamp, showStart, SITE_TIME_ZONE } from '~/utils/time';

import { absoluteUrl, splitLocation } from './seo';

/** Pure builders for /sitemap.xml, /robots.txt, /blog/rss.xml and the .ics calendars. */

export function escapeXml(text: string): string {
  return (
    text
      // Characters XML 1.0 does not allow at all.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

// --- sitemap -----------------------------------------------------------------------------------

export type SitemapEntry = {
  /** Path or absolute URL. */
  loc: string;
  /** ISO date or date-time. */
  lastmod?: string;
  changefreq?: 'always' | 'hourly' | 'daily' | 'weekly' | 'monthly' | 'yearly' | 'never';
  priority?: number;
};

/** The public pages that exist for every visitor (posts and shows are added from the data). */
export const STATIC_PUBLIC_PAGES: SitemapEntry[] = [
  { loc: '/', changefreq: 'weekly', priority: 1 },
  { loc: '/music', changefreq: 'weekly', priority: 0.9 },
  { loc: '/gallery', changefreq: 'monthly', priority: 0.6 },
  { loc: '/blog', changefreq: 'weekly', priority: 0.8 },
  { loc: '/shows', changefreq: 'weekly', priority: 0.9 },
  { loc: '/about', changefreq: 'monthly', priority: 0.7 },
  { loc: '/contact', changefreq: 'yearly', priority: 0.5 },
];

export function sitemapEntries(input: {
  posts: Pick<BlogPostJSON, 'slug' | 'createdAt'>[];
  shows: Pick<ShowJSON, 'id' | 'createdAt'>[];
  /** Newsletter issues in the public archive. */
  newsletters?: { slug: string; sentAt: string }[];
  extraPages?: SitemapEntry[];
}): SitemapEntry[] {
  const newsletters = input.newsletters ?? [];
  return [
    ...STATIC_PUBLIC_PAGES,
    ...(input.extraPages ?? []),
    { loc: '/newsletter', lastmod: newsletters[0]?.sentAt, changefreq: 'monthly', priority: 0.5 },
    ...newsletters.map((n) => ({
      loc: `/newsletter/${encodeURIComponent(n.slug)}`,
      lastmod: n.sentAt,
      changefreq: 'yearly' as const,
      priority: 0.4,
    })),
    ...input.posts.map((p) => ({
      loc: `/blog/${encodeURIComponent(p.slug)}`,
      lastmod: p.createdAt,
      changefreq: 'monthly' as const,
      priority: 0.7,
    })),
    ...input.shows.map((s) => ({
      loc: `/shows#show-${s.id}`,
      lastmod: s.createdAt,
      changefreq: 'weekly' as const,
      priority: 0.6,
    })),
  ];
}

/** One `<url>` of a sitemap. */
export function sitemapUrlXml(origin: string, e: SitemapEntry): string {
  const parts = [`    <loc>${escapeXml(absoluteUrl(origin, e.loc))}</loc>`];
  if (e.lastmod) parts.push(`    <lastmod>${escapeXml(e.lastmod)}</lastmod>`);
  if (e.changefreq) parts.push(`    <changefreq>${e.changefreq}</changefreq>`);
  if (e.priority !== undefined) parts.push(`    <priority>${e.priority.toFixed(1)}</priority>`);
  return `  <url>\n${parts.join('\n')}\n  </url>`;
}

export const SITEMAP_URLSET_OPEN = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
].join('\n');
export const SITEMAP_URLSET_CLOSE = '</urlset>\n';

export function sitemapXml(origin: string, entries: SitemapEntry[]): string {
  return [
    SITEMAP_URLSET_OPEN,
    ...entries.map((e) => sitemapUrlXml(origin, e)),
    SITEMAP_URLSET_CLOSE,
  ].join('\n');
}

/** A sitemap index (sitemaps.org): one `<sitemap>` per child sitemap, by absolute URL. */
export function sitemapIndexXml(locs: readonly string[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...locs.map((loc) => `  <sitemap>\n    <loc>${escapeXml(loc)}</loc>\n  </sitemap>`),
    '</sitemapindex>',
    '',
  ].join('\n');
}

export function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /admin',
    'Disallow: /api',
    '',
    `Sitemap: ${absoluteUrl(origin, '/sitemap.xml')}`,
    '',
  ].join('\n');
}

// --- RSS 2.0 ------------------------------------------------------------------------------------

export function blogRssXml(input: {
  origin: string;
  siteName: string;
  description: string;
  posts: (Pick<
    BlogPostJSON,
    'title' | 'slug' | 'excerpt' | 'imageUrl' | 'category' | 'createdAt'
  > & { locked?: boolean })[];
  now?: Date;
}): string {
  const { origin, siteName } = input;
  const blogUrl = absoluteUrl(origin, '/blog');
  const selfUrl = absoluteUrl(origin, '/blog/rss.xml');
  const lastBuild = input.posts[0]?.createdAt ?? (input.now ?? new Date()).toISOString();
  const items = input.posts.map((p) => {
    const link = absoluteUrl(origin, `/blog/${encodeURIComponent(p.slug)}`);
    return [
      '    <item>',
      `      <title>${escapeXml(p.title)}</title>`,
      `      <link>${escapeXml(link)}</link>`,
      `      <guid isPermaLink="true">${escapeXml(link)}</guid>`,
      `      <pubDate>${httpDate(p.createdAt)}</pubDate>`,
      `      <category>${escapeXml(p.category)}</category>`,
      ...(p.locked ? [`      <category>${MEMBERS_ONLY}</category>`] : []),
      `      <description>${escapeXml(p.excerpt)}</description>`,
      `      <enclosure url="${escapeXml(absoluteUrl(origin, p.imageUrl))}" length="0" type="${imageType(p.imageUrl)}"/>`,
      '    </item>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    '  <channel>',
    `    <title>${escapeXml(`${siteName} Blog`)}</title>`,
    `    <link>${escapeXml(blogUrl)}</link>`,
    `    <description>${escapeXml(input.description)}</description>`,
    '    <language>en-us</language>',
    `    <lastBuildDate>${httpDate(lastBuild)}</lastBuildDate>`,
    `    <atom:link href="${escapeXml(selfUrl)}" rel="self" type="application/rss+xml"/>`,
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
}

function imageType(url: string): string {
  const ext = url.split(/[?#]/)[0]?.split('.').pop()?.toLowerCase();
  if (ext === 'png') return 'image/png';
  if (ext === 'webp') return 'image/webp';
  if (ext === 'gif') return 'image/gif';
  return 'image/jpeg';
}

// --- iCalendar (RFC 5545) ---------------------------------------------------------------------

/** TEXT value escaping: backslash, semicolon, comma and newlines. */
export function escapeIcsText(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

const encoder = new TextEncoder();
const utf8Length = (s: string) => encoder.encode(s).length;

/** Fold a content line at 75 octets (RFC 5545 §3.1), never inside a UTF-8 character. */
export function foldIcsLine(line: string): string {
  if (utf8Length(line) <= 75) return line;
  const out: string[] = [];
  let current = '';
  let bytes = 0;
  let limit = 75;
  for (const ch of line) {
    const size = utf8Length(ch);
    if (bytes + size > limit) {
      out.push(current);
      current = '';
      bytes = 0;
      limit = 74; // continuation lines start with a space
    }
    current += ch;
    bytes += size;
  }
  out.push(current);
  return out.join('\r\n ');
}

/** America/New_York since 2007: DST from the second Sunday of March to the first of November. */
const NEW_YORK_VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  `TZID:${SITE_TIME_ZONE}`,
  `X-LIC-LOCATION:${SITE_TIME_ZONE}`,
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:-0500',
  'TZOFFSETTO:-0400',
  'TZNAME:EDT',
  'DTSTART:20070311T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:-0400',
  'TZOFFSETTO:-0500',
  'TZNAME:EST',
  'DTSTART:20071104T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

export type IcsShow = Pick<
  ShowJSON,
  | 'id'
  | 'title'
  | 'venue'
  | 'location'
  | 'date'
  | 'time'
  | 'ticketUrl'
  | 'description'
  | 'createdAt'
>;

function icsHost(origin: string): string {
  try {
    return new URL(origin).host || 'nightshore.local';
  } catch {
    return 'nightshore.local';
  }
}

function showEvent(
  show: IcsShow,
  input: { origin: string; siteName: string; now: Date },
): string[] {
  const start = showStart(show);
  const { locality, region } = splitLocation(show.location);
  const url = `${absoluteUrl(input.origin, '/shows')}#show-${show.id}`;
  const description = [
    show.description,
    `Doors open at ${show.time}.`,
    show.ticketUrl ? `Tickets: ${show.ticketUrl}` : 'Tickets TBA',
    url,
  ]
    .filter(Boolean)
    .join('\n\n');
  const lines = [
    'BEGIN:VEVENT',
    `UID:show-${show.id}@${icsHost(input.origin)}`,
    `DTSTAMP:${icsUtcStamp(input.now)}`,
    start.allDay
      ? `DTSTART;VALUE=DATE:${start.ics}`
      : `DTSTART;TZID=${SITE_TIME_ZONE}:${start.ics}`,
    `SUMMARY:${escapeIcsText(`${input.siteName}: ${show.title}`)}`,
    `LOCATION:${escapeIcsText([show.venue, locality, region].filter(Boolean).join(', '))}`,
    `DESCRIPTION:${escapeIcsText(description)}`,
    `URL:${url}`,
    'STATUS:CONFIRMED',
    'TRANSP:OPAQUE',
  ];
  if (show.createdAt) lines.push(`CREATED:${icsUtcStamp(new Date(show.createdAt))}`);
  lines.push('END:VEVENT');
  return lines;
}

/** A VCALENDAR with one VEVENT per show (CRLF line endings, folded lines). */
export function showsIcs(input: {
  origin: string;
  siteName: string;
  shows: IcsShow[];
  now?: Date;
  /** Calendar name shown by subscribing apps. */
  calendarName?: string;
}): string {
  const now = input.now ?? new Date();
  const timed = input.shows.some((s) => !showStart(s).allDay);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${escapeIcsText(input.siteName)}//Shows//EN`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeIcsText(input.calendarName ?? `${input.siteName} shows`)}`,
    `X-WR-TIMEZONE:${SITE_TIME_ZONE}`,
    'REFRESH-INTERVAL;VALUE=DURATION:PT12H',
    'X-PUBLISHED-TTL:PT12H',
    ...(timed ? NEW_YORK_VTIMEZONE : []),
    ...input.shows.flatMap((s) =>
      showEvent(s, { origin: input.origin, siteName: input.siteName, now }),
    ),
    'END:VCALENDAR',
  ];
  return lines.map(foldIcsLine).join('\r\n') + '\r\n';
}

/** A file name for a show's .ics download. */
export function showIcsFileName(show: Pick<ShowJSON, 'id' | 'title' | 'date'>): string {
  const slug = show.title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
  return `${show.date}-${slug || `show-${show.id}`}.ics`;
}
