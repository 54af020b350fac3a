import { countPublicBlogPosts, streamPublicBlogPostLinks } from '~/models/blog-post.server';
import {
  countArchivedNewsletters,
  streamArchivedNewsletterLinks,
} from '~/models/newsletter.server';
import { countAllShows, streamShowLinks } from '~/models/show.server';
import { builtValues } from '~/platform/read-cache.server';
import { siteOrigin } from '~/platform/site-origin.server';
import {
  SITEMAP_URLSET_CLOSE,
  SITEMAP_URLSET_OPEN,
  type SitemapEntry,
  sitemapIndexXml,
  sitemapUrlXml,
  STATIC_PUBLIC_PAGES,
} from '~/utils/seo/feeds';
import { absoluteUrl } from '~/utils/seo/seo';
import { siteToday } from '~/utils/time';

/**
 * /sitemap.xml (decision 045): every public page, every blog post a visitor without an account
 * can read, every show (as /shows#show-{id}) and the newsletter archive with its issues, read
 * from cursors with projections. Past SITEMAP_MAX_URLS URLs (the protocol's limit per file) it
 * becomes a sitemap index of `/sitemap.xml?page=1`, `?page=2`…, each child at most that many
 * URLs. Each file is built once per write (and per day: early access turns posts public at
 * midnight) and shared by every request until then.
 */

/** The sitemaps.org limit of URLs in one sitemap file (also 50 MB, far above ours). */
export const SITEMAP_MAX_URLS = 50_000;

type Slice = { skip: number; limit: number };

/** A run of the sitemap's URLs: how many, and the ones in a slice of it. */
type Section = { count: number; entries: (slice: Slice) => AsyncIterable<SitemapEntry> };

async function* fromArray(entries: SitemapEntry[], slice: Slice) {
  yield* entries.slice(slice.skip, slice.skip + slice.limit);
}

async function* mapped<T>(source: AsyncIterable<T>, map: (item: T) => SitemapEntry) {
  for await (const item of source) yield map(item);
}

async function sections(today: string): Promise<Section[]> {
  const [newsletters, posts, shows, newest] = await Promise.all([
    countArchivedNewsletters(),
    countPublicBlogPosts(today),
    countAllShows(),
    firstOf(streamArchivedNewsletterLinks({ limit: 1 })),
  ]);
  const pages: SitemapEntry[] = [
    ...STATIC_PUBLIC_PAGES,
    { loc: '/newsletter', lastmod: newest?.sentAt, changefreq: 'monthly', priority: 0.5 },
  ];
  return [
    { count: pages.length, entries: (slice) => fromArray(pages, slice) },
    {
      count: newsletters,
      entries: (slice) =>
        mapped(streamArchivedNewsletterLinks(slice), (n) => ({
          loc: `/newsletter/${encodeURIComponent(n.slug)}`,
          lastmod: n.sentAt,
          changefreq: 'yearly',
          priority: 0.4,
        })),
    },
    {
      count: posts,
      entries: (slice) =>
        mapped(streamPublicBlogPostLinks(today, slice), (p) => ({
          loc: `/blog/${encodeURIComponent(p.slug)}`,
          lastmod: p.createdAt,
          changefreq: 'monthly',
          priority: 0.7,
        })),
    },
    {
      count: shows,
      entries: (slice) =>
        mapped(streamShowLinks(slice), (s) => ({
          loc: `/shows#show-${s.id}`,
          lastmod: s.createdAt,
          changefreq: 'weekly',
          priority: 0.6,
        })),
    },
  ];
}

async function firstOf<T>(source: AsyncIterable<T>): Promise<T | null> {
  for await (const item of source) return item;
  return null;
}

/** The URLs from `skip` on, at most `limit`, across the sections in order. */
async function* urlsIn(all: Section[], slice: Slice): AsyncGenerator<SitemapEntry> {
  let { skip, limit } = slice;
  for (const section of all) {
    if (limit <= 0) return;
    if (skip >= section.count) {
      skip -= section.count;
      continue;
    }
    const take = Math.min(limit, section.count - skip);
    let taken = 0;
    for await (const entry of section.entries({ skip, limit: take })) {
      yield entry;
      taken += 1;
    }
    skip = 0;
    limit -= taken;
  }
}

async function urlsetXml(origin: string, urls: AsyncIterable<SitemapEntry>): Promise<string> {
  const parts = [SITEMAP_URLSET_OPEN];
  for await (const entry of urls) parts.push(sitemapUrlXml(origin, entry));
  parts.push(SITEMAP_URLSET_CLOSE);
  return parts.join('\n');
}

/** The child sitemap at `page` (1-based) of the index. */
export const sitemapPagePath = (page: number) => `/sitemap.xml?page=${page}`;

const memo = builtValues<string | null>(4);

/**
 * The sitemap file asked for: `page` null is /sitemap.xml (the whole sitemap, or the index when
 * there are more than `maxUrls` URLs); a number is a child of the index. Null for a page that
 * does not exist (a 404).
 */
export function sitemapFile(
  page: number | null,
  options: { maxUrls?: number; today?: string } = {},
): Promise<string | null> {
  const maxUrls = options.maxUrls ?? SITEMAP_MAX_URLS;
  const today = options.today ?? siteToday();
  const origin = siteOrigin();
  return memo.get([origin, today, maxUrls, page ?? 'root'].join('\n'), async () => {
    const all = await sections(today);
    const total = all.reduce((sum, s) => sum + s.count, 0);
    const pageCount = Math.max(1, Math.ceil(total / maxUrls));
    if (pageCount === 1) {
      // `?page=1` too: a crawler may still hold the index of a sitemap that has shrunk.
      return page === null || page === 1
        ? urlsetXml(origin, urlsIn(all, { skip: 0, limit: total }))
        : null;
    }
    if (page === null) {
      const locs = Array.from({ length: pageCount }, (_, i) =>
        absoluteUrl(origin, sitemapPagePath(i + 1)),
      );
      return sitemapIndexXml(locs);
    }
    if (page < 1 || page > pageCount) return null;
    return urlsetXml(origin, urlsIn(all, { skip: (page - 1) * maxUrls, limit: maxUrls }));
  });
}
