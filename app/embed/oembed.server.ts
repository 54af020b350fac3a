import { LINK_CARD } from '~/files/link-card-image.server';
import { mediaKeyFromUrl } from '~/files/media-store.server';
import { parseId } from '~/models/model-helpers.server';
import { getTrack } from '~/models/track.server';
import { env } from '~/platform/env.server';
import { siteOrigin } from '~/platform/site-origin.server';
import { EMBED_MAX_WIDTH, EMBED_SIZES } from '~/types/constants';
import type { TrackJSON } from '~/types/entities';
import { escapeHtml } from '~/utils/html';
import { parseDeepLinkTime } from '~/utils/media-time';

import { parseIds, playlistTracks, smallCover, trackPageUrl } from './page.server';

/**
 * The oEmbed 1.0 provider (https://oembed.com, decision 038): `GET /oembed?url=&format=json
 * &maxwidth=&maxheight=` for this site's track pages (`/music/{id}`), embed URLs
 * (`/embed/tracks/{id}`, `/embed/playlist[?ids=]`) and the music page (`/music`, the featured
 * tracks). `type: "rich"`, its `html` a plain sandboxed `<iframe>` of the embed page.
 */

export type OEmbed = {
  type: 'rich';
  version: '1.0';
  title: string;
  author_name: string;
  author_url: string;
  provider_name: string;
  provider_url: string;
  cache_age: number;
  thumbnail_url: string;
  thumbnail_width: number;
  thumbnail_height: number;
  html: string;
  width: number;
  height: number;
};

export type OEmbedResult =
  { status: 200; body: OEmbed } | { status: 400 | 404 | 501; error: string };

/** The discovery link of a page: `<link rel="alternate" type="application/json+oembed">`. */
export function oembedHref(pageUrl: string): string {
  return `${siteOrigin()}/oembed?${new URLSearchParams({ url: pageUrl, format: 'json' }).toString()}`;
}

/** What an URL of ours embeds: one track, or a list (ids, or the featured when empty). */
type Target = { kind: 'track'; id: number; t: number | null } | { kind: 'list'; ids: number[] };

/** The target of a URL of this site (its host compared with SITE_URL's), or null. */
export function oembedTarget(value: string): Target | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  const site = new URL(siteOrigin());
  if (!['http:', 'https:'].includes(url.protocol) || url.host !== site.host) return null;
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const track = /^\/(?:music|embed\/tracks)\/(\d{1,12})$/.exec(path);
  if (track) {
    const id = parseId(track[1]);
    return id === null
      ? null
      : { kind: 'track', id, t: parseDeepLinkTime(url.searchParams.get('t')) };
  }
  if (path === '/music') return { kind: 'list', ids: [] };
  if (path === '/embed/playlist') {
    const ids = parseIds(url.searchParams.get('ids'));
    return ids === null ? null : { kind: 'list', ids };
  }
  return null;
}

/** A positive integer of `maxwidth`/`maxheight`, or undefined when absent; NaN when junk. */
function dimension(value: string | null): number | undefined {
  if (value === null || value === '') return undefined;
  return /^\d{1,5}$/.test(value) && Number(value) > 0 ? Number(value) : Number.NaN;
}

/** The iframe code of an embed URL at a size: what oEmbed, the share page and the menu give. */
export function iframeCode(src: string, width: number | '100%', height: number, title: string) {
  return (
    `<iframe src="${escapeHtml(src)}" width="${width}" height="${height}" title="${escapeHtml(title)}" ` +
    'style="border:0;max-width:100%" loading="lazy" allow="autoplay" ' +
    'sandbox="allow-scripts allow-popups allow-popups-to-escape-sandbox"></iframe>'
  );
}

export async function oembed(params: URLSearchParams): Promise<OEmbedResult> {
  const format = params.get('format') ?? 'json';
  const value = params.get('url');
  if (!value) return { status: 400, error: 'The url parameter is required' };
  if (format !== 'json') return { status: 501, error: 'Only format=json is supported' };
  const maxwidth = dimension(params.get('maxwidth'));
  const maxheight = dimension(params.get('maxheight'));
  if (Number.isNaN(maxwidth) || Number.isNaN(maxheight)) {
    return { status: 400, error: 'maxwidth and maxheight must be positive whole numbers' };
  }
  const target = oembedTarget(value);
  if (!target) return { status: 404, error: 'No embed for this URL' };

  let tracks: TrackJSON[];
  let src: string;
  let title: string;
  const origin = siteOrigin();
  if (target.kind === 'track') {
    const track = await getTrack(target.id);
    if (!track) return { status: 404, error: 'No embed for this URL' };
    tracks = [track];
    src = `${origin}/embed/tracks/${track.id}${target.t ? `?t=${target.t}` : ''}`;
    title = `${track.title} by ${track.artist}`;
  } else {
    tracks = await playlistTracks(target.ids);
    if (tracks.length === 0) return { status: 404, error: 'No embed for this URL' };
    src = `${origin}/embed/playlist${target.ids.length ? `?ids=${target.ids.join(',')}` : ''}`;
    title = `${tracks.length === 1 ? '1 track' : `${tracks.length} tracks`} on ${env.SITE_NAME}`;
  }
  const first = tracks[0] as TrackJSON;
  const size = target.kind === 'track' ? EMBED_SIZES.compact : EMBED_SIZES.list;
  const width = Math.min(size.width, maxwidth ?? EMBED_MAX_WIDTH);
  // A list taller than the consumer allows becomes the card alone (the page hides its list
  // below 200 px of height); a card is never taller than maxheight.
  let height: number = size.height;
  if (maxheight !== undefined && maxheight < height) {
    height = Math.min(maxheight, EMBED_SIZES.compact.height);
  }
  // The link card's JPEG (what og:image names: WebP is not read by every consumer) when the
  // cover is a stored image it can be made from; else the small cover.
  const cover = mediaKeyFromUrl(first.coverImage)
    ? { src: `${trackPageUrl(first.id)}/card.jpg`, ...LINK_CARD }
    : await smallCover(first.coverImage);
  const absolute = (url: string) => (/^https?:\/\//.test(url) ? url : `${origin}${url}`);
  const frameTitle = `${title} — ${env.SITE_NAME} player`;
  return {
    status: 200,
    body: {
      type: 'rich',
      version: '1.0',
      title,
      author_name: target.kind === 'track' ? first.artist : env.SITE_NAME,
      author_url: target.kind === 'track' ? trackPageUrl(first.id) : `${origin}/music`,
      provider_name: env.SITE_NAME,
      provider_url: `${origin}/`,
      cache_age: 3600,
      thumbnail_url: absolute(cover.src),
      thumbnail_width: cover.width,
      thumbnail_height: cover.height,
      html: iframeCode(src, width, height, frameTitle),
      width,
      height,
    },
  };
}
