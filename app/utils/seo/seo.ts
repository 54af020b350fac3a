import type { MetaDescriptor, MetaFunction } from '@remix-run/node';
import { createElement } from 'react';

import type { BlogPostJSON, ShowJSON, TrackJSON } from '~/types/entities';
import { isMembersOnly } from '~/utils/access';
import { jsonForScript } from '~/utils/html';
import { isoDurationOf, parseClock } from '~/utils/media-time';
import { pageHref, type Paging } from '~/utils/page-href';
import { showStart } from '~/utils/time';

/**
 * Discovery metadata (client-safe: meta functions also run in the browser).
 *
 * Page routes use it like this:
 *
 *   export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) =>
 *     seoMeta({
 *       ...seoSite(matches),
 *       title: 'Music',
 *       description: `Stream every ${seoSite(matches).siteName} track…`,
 *       url: location.pathname,
 *       image: data?.tracks[0]?.coverImage,
 *       jsonLd: data ? data.tracks.map((t) => musicRecordingLd(t, seoSite(matches))) : [],
 *     });
 *
 * `seoSite(matches)` reads the absolute origin and the site name from the root loader's data
 * (`site.siteUrl`, which is SITE_URL or, when empty, the request's origin).
 */

export type SeoSite = { origin: string; siteName: string };

type MatchLike = { id: string; data?: unknown };

/** The site name when SITE_NAME is not set (platform/env.server.ts) or no root data is at hand. */
export const DEFAULT_SITE_NAME = 'Night Shore';

const DEFAULT_SITE: SeoSite = { origin: '', siteName: DEFAULT_SITE_NAME };

/** The origin and site name from the root route's data in a meta function's `matches`. */
export function seoSite(matches: readonly (MatchLike | undefined)[] | undefined): SeoSite {
  const root = matches?.find((m) => m?.id === 'root')?.data as
    { site?: { siteUrl?: string; siteName?: string } } | undefined;
  return {
    origin: (root?.site?.siteUrl ?? '').replace(/\/+$/, ''),
    siteName: root?.site?.siteName ?? DEFAULT_SITE.siteName,
  };
}

/**
 * An admin page's `<title>` for its meta function: 'Tracks | Admin | {site name}' (the site
 * name from the root match, as in `seoSite`); without a page, 'Admin | {site name}'.
 */
export function adminTitle(
  matches: readonly (MatchLike | undefined)[] | undefined,
  page?: string,
): MetaDescriptor[] {
  const { siteName } = seoSite(matches);
  return [{ title: [page, 'Admin', siteName].filter(Boolean).join(' | ') }];
}

/**
 * The `<title>` of a page that has no `seoMeta` (account, auth, legal and link pages):
 * '{page} — {site name}', as `seoMeta` writes it, the site name from the root match.
 */
export function pageTitle(
  matches: readonly (MatchLike | undefined)[] | undefined,
  page: string,
): MetaDescriptor {
  return { title: `${page} — ${seoSite(matches).siteName}` };
}

/**
 * The meta of a link's own page (a confirmation or unsubscribe link from an email): its
 * `pageTitle`, and kept out of search engines.
 */
export function linkPageMeta(page: string): MetaFunction {
  return ({ matches }) => [pageTitle(matches, page), { name: 'robots', content: 'noindex' }];
}

/** The collective's social profile URLs from the root data (for MusicGroup `sameAs`). */
export function socialLinks(matches: readonly (MatchLike | undefined)[] | undefined): string[] {
  const root = matches?.find((m) => m?.id === 'root')?.data as
    { site?: { social?: Record<string, string | null | undefined> } } | undefined;
  return Object.values(root?.site?.social ?? {}).filter((v): v is string => Boolean(v));
}

/** An absolute URL for a path (left as is when it already is absolute or no origin is known). */
export function absoluteUrl(origin: string, pathOrUrl: string): string {
  if (/^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
  if (!origin) return pathOrUrl;
  return `${origin}${pathOrUrl.startsWith('/') ? '' : '/'}${pathOrUrl}`;
}

export const DEFAULT_OG_IMAGE = '/og-default.jpg';

export type SeoInput = Partial<SeoSite> & {
  /** The page's own title, e.g. 'Music'; the site name is appended unless it is the site name. */
  title: string;
  /** The whole `<title>` when it should not be '{title} — {site name}'. */
  fullTitle?: string;
  description: string;
  /** Path or absolute URL of the page (canonical); query and hash are dropped. */
  url: string;
  /** Path or absolute URL of the page's image (track cover, post image…); a default otherwise. */
  image?: string | null;
  imageAlt?: string;
  type?: 'website' | 'article' | 'music.song' | 'music.playlist' | 'profile';
  /** JSON-LD objects rendered as `<script type="application/ld+json">` (escaped by Remix). */
  jsonLd?: object | object[];
  /** For pages that must stay out of search results. */
  noindex?: boolean;
  /**
   * A page of a paged list (issue 37): the canonical URL keeps the list's parameters and its
   * page (page 1 without `?page=1`), and `<link rel="prev">`/`"next">` name its neighbours.
   */
  paging?: Paging;
  /**
   * When the page's work came out (ISO): `article:published_time` on an article,
   * `music:release_date` on a song. Link scrapers show it as the page's date.
   */
  published?: string | null;
  /** Who made it: `<meta name="author">`, and `article:author` on an article. */
  author?: string | null;
};

/** Title, description, canonical link, Open Graph, Twitter card and JSON-LD for one page. */
export function seoMeta(input: SeoInput): MetaDescriptor[] {
  const origin = (input.origin ?? DEFAULT_SITE.origin).replace(/\/+$/, '');
  const siteName = input.siteName ?? DEFAULT_SITE.siteName;
  const fullTitle =
    input.fullTitle ?? (input.title === siteName ? siteName : `${input.title} — ${siteName}`);
  // One URL per page: no query, no hash, no trailing slash (except the root).
  const pathOnly = (input.url.split(/[?#]/)[0] || '/').replace(/(.)\/+$/, '$1');
  const paging = input.paging;
  const pagePath = (page: number) =>
    paging ? pageHref(pathOnly, paging.params, page, paging.pageName) : pathOnly;
  const canonical = absoluteUrl(origin, pagePath(paging?.page ?? 1));
  const image = absoluteUrl(origin, input.image || DEFAULT_OG_IMAGE);
  const description = truncate(input.description, 300);
  const tags: MetaDescriptor[] = [
    { title: fullTitle },
    { name: 'description', content: description },
    { tagName: 'link', rel: 'canonical', href: canonical },
    { property: 'og:site_name', content: siteName },
    { property: 'og:type', content: input.type ?? 'website' },
    { property: 'og:title', content: input.title },
    { property: 'og:description', content: description },
    { property: 'og:url', content: canonical },
    { property: 'og:image', content: image },
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:title', content: input.title },
    { name: 'twitter:description', content: description },
    { name: 'twitter:image', content: image },
  ];
  if (input.imageAlt) {
    tags.push({ property: 'og:image:alt', content: input.imageAlt });
    tags.push({ name: 'twitter:image:alt', content: input.imageAlt });
  }
  if (input.published && input.type === 'article') {
    tags.push({ property: 'article:published_time', content: input.published });
  }
  if (input.published && input.type === 'music.song') {
    tags.push({ property: 'music:release_date', content: input.published });
  }
  if (input.author) {
    tags.push({ name: 'author', content: input.author });
    if (input.type === 'article') tags.push({ property: 'article:author', content: input.author });
  }
  if (input.noindex) tags.push({ name: 'robots', content: 'noindex' });
  if (paging && paging.page > 1)
    tags.push({
      tagName: 'link',
      rel: 'prev',
      href: absoluteUrl(origin, pagePath(paging.page - 1)),
    });
  if (paging && paging.page < paging.pageCount)
    tags.push({
      tagName: 'link',
      rel: 'next',
      href: absoluteUrl(origin, pagePath(paging.page + 1)),
    });
  const ld =
    input.jsonLd === undefined ? [] : Array.isArray(input.jsonLd) ? input.jsonLd : [input.jsonLd];
  for (const data of ld) tags.push({ 'script:ld+json': data });
  return tags;
}

function truncate(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length <= max ? clean : `${clean.slice(0, max - 1).trimEnd()}…`;
}

// ---------------------------------------------------------------------------------------------
// JSON-LD (schema.org)

const CONTEXT = 'https://schema.org';

export type MusicGroupInput = SeoSite & {
  description?: string;
  image?: string;
  email?: string;
  /** 'City, State' or a street address. */
  address?: string;
  sameAs?: (string | null | undefined)[];
  genre?: string;
};

export function musicGroupLd(group: MusicGroupInput) {
  return {
    '@context': CONTEXT,
    '@type': 'MusicGroup',
    '@id': `${absoluteUrl(group.origin, '/')}#group`,
    name: group.siteName,
    url: absoluteUrl(group.origin, '/'),
    ...(group.description ? { description: group.description } : {}),
    ...(group.image ? { image: absoluteUrl(group.origin, group.image) } : {}),
    ...(group.email ? { email: group.email } : {}),
    genre: group.genre ?? 'Electronic',
    ...(group.address ? { location: { '@type': 'Place', address: group.address } } : {}),
    sameAs: (group.sameAs ?? []).filter((s): s is string => Boolean(s)),
  };
}

/** ISO 8601 duration from 'm:ss' or 'h:mm:ss' (undefined when unreadable). */
export function isoDuration(duration: string): string | undefined {
  const seconds = parseClock(duration, { lenient: true });
  if (seconds === null) return undefined;
  // Minutes and seconds always written (PT3M0S), as this fallback has always written them.
  const h = Math.floor(seconds / 3600);
  return `PT${h ? `${h}H` : ''}${Math.floor((seconds % 3600) / 60)}M${seconds % 60}S`;
}

/**
 * A track's MusicRecording. A locked track (members-only, seen without an account) has no
 * `audioFile`, and one still processing has `audioFile: null`: its entry names no audio object,
 * so no URL that does not answer (or is not public) is published.
 */
export function musicRecordingLd(
  track: Pick<
    TrackJSON,
    'id' | 'title' | 'artist' | 'album' | 'duration' | 'coverImage' | 'createdAt'
  > & { audioFile?: string | null; durationSeconds?: number; description?: string | null },
  site: SeoSite,
) {
  // Whole seconds when known (PT1H2M30S), else read from the shown duration.
  const duration =
    track.durationSeconds && track.durationSeconds > 0
      ? isoDurationOf(track.durationSeconds)
      : isoDuration(track.duration);
  // The track's own page (decision 034).
  const page = absoluteUrl(site.origin, `/music/${track.id}`);
  return {
    '@context': CONTEXT,
    '@type': 'MusicRecording',
    '@id': `${page}#recording`,
    name: track.title,
    url: page,
    ...(track.description ? { description: track.description } : {}),
    byArtist: { '@type': 'MusicGroup', name: track.artist },
    ...(track.album ? { inAlbum: { '@type': 'MusicAlbum', name: track.album } } : {}),
    ...(duration ? { duration } : {}),
    image: absoluteUrl(site.origin, track.coverImage),
    ...(track.audioFile
      ? {
          audio: {
            '@type': 'AudioObject',
            contentUrl: absoluteUrl(site.origin, track.audioFile),
            encodingFormat: /\.wav$/i.test(track.audioFile) ? 'audio/wav' : 'audio/mpeg',
          },
        }
      : {}),
    datePublished: track.createdAt,
  };
}

/**
 * A post's BlogPosting (no body: the excerpt is its description). A post that is members-only
 * today is marked `isAccessibleForFree: false` (schema.org's way to say a login is needed).
 */
export function blogPostingLd(
  post: Pick<
    BlogPostJSON,
    'title' | 'slug' | 'excerpt' | 'imageUrl' | 'category' | 'visibility' | 'publicAt' | 'createdAt'
  >,
  site: SeoSite,
) {
  const url = absoluteUrl(site.origin, `/blog/${post.slug}`);
  return {
    '@context': CONTEXT,
    '@type': 'BlogPosting',
    '@id': url,
    mainEntityOfPage: url,
    url,
    headline: post.title,
    description: post.excerpt,
    image: absoluteUrl(site.origin, post.imageUrl),
    articleSection: post.category,
    ...(isMembersOnly(post) ? { isAccessibleForFree: false } : {}),
    datePublished: post.createdAt,
    author: { '@type': 'MusicGroup', name: site.siteName, url: absoluteUrl(site.origin, '/') },
    publisher: { '@type': 'Organization', name: site.siteName, url: absoluteUrl(site.origin, '/') },
  };
}

/** 'Asbury Park, NJ' → locality + region. */
export function splitLocation(location: string): { locality: string; region?: string } {
  const i = location.lastIndexOf(',');
  if (i < 0) return { locality: location.trim() };
  return { locality: location.slice(0, i).trim(), region: location.slice(i + 1).trim() };
}

export function musicEventLd(
  show: Pick<
    ShowJSON,
    'id' | 'title' | 'venue' | 'location' | 'date' | 'time' | 'ticketUrl' | 'description'
  >,
  site: SeoSite & { image?: string },
) {
  const start = showStart(show);
  const { locality, region } = splitLocation(show.location);
  const url = `${absoluteUrl(site.origin, '/shows')}#show-${show.id}`;
  return {
    '@context': CONTEXT,
    '@type': 'MusicEvent',
    '@id': url,
    name: show.title,
    url,
    startDate: start.iso,
    eventStatus: 'https://schema.org/EventScheduled',
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    location: {
      '@type': 'Place',
      name: show.venue,
      address: {
        '@type': 'PostalAddress',
        addressLocality: locality,
        ...(region ? { addressRegion: region } : {}),
        addressCountry: 'US',
      },
    },
    performer: { '@type': 'MusicGroup', name: site.siteName, url: absoluteUrl(site.origin, '/') },
    organizer: { '@type': 'MusicGroup', name: site.siteName, url: absoluteUrl(site.origin, '/') },
    ...(show.description ? { description: show.description } : {}),
    image: absoluteUrl(site.origin, site.image ?? DEFAULT_OG_IMAGE),
    ...(show.ticketUrl
      ? {
          offers: {
            '@type': 'Offer',
            url: show.ticketUrl,
            availability: 'https://schema.org/InStock',
          },
        }
      : {}),
  };
}

/** `<script type="application/ld+json">` for pages that render JSON-LD in the body. */
export function JsonLd({ data }: { data: unknown }) {
  return createElement('script', {
    type: 'application/ld+json',
    dangerouslySetInnerHTML: { __html: jsonForScript(data) },
  });
}
