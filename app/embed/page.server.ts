import fs from 'node:fs';
import path from 'node:path';

import {
  createNonce,
  embedContentSecurityPolicy,
  embedFrameAncestors,
} from '~/document/security-headers.server';
import { imageInfo } from '~/files/image-derivatives.server';
import { getTheme } from '~/models/theme.server';
import { getFeaturedTrack, getTrack, listTracks } from '~/models/track.server';
import { getTrackPeaks } from '~/models/track-peaks.server';
import { env } from '~/platform/env.server';
import { logger } from '~/platform/logger.server';
import { siteOrigin } from '~/platform/site-origin.server';
import { embeddingHost, playToken } from '~/services/play-token.server';
import type { EmbedData, EmbedTrack } from '~/types/embed';
import type { TrackJSON } from '~/types/entities';
import { ANONYMOUS, audioPendingText, isPlayable, trackFor } from '~/utils/access';
import { escapeHtml, jsonForScript } from '~/utils/html';
import { formatClock, parseDeepLinkTime } from '~/utils/media-time';
import { levelsShape, waveformLevels } from '~/utils/waveform-levels';
import { WAVEFORM_HEIGHT } from '~/utils/waveform-path';

import { embedStyle, type EmbedTheme } from './style.server';

/**
 * The embed pages `/embed/tracks/{id}` and `/embed/playlist` (decision 038): small HTML
 * written here as a string, with the script built from app/embed/player.ts
 * (scripts/build-embed.ts), no hydration, no cookie, no storage, no other host. Locked
 * (members-only) tracks carry no audio URL.
 */

export const PLAYLIST_LIMIT = 50;

export const embedTheme = (value: string | null): EmbedTheme =>
  value === 'light' ? 'light' : 'dark';

/** `?ids=1,2,3`: up to PLAYLIST_LIMIT distinct positive ids, or null when malformed. */
export function parseIds(value: string | null): number[] | null {
  if (value === null) return [];
  if (!/^\d{1,9}(,\d{1,9})*$/.test(value.trim())) return null;
  const ids = [...new Set(value.trim().split(',').map(Number))].filter((n) => n > 0);
  return ids.length > 0 ? ids.slice(0, PLAYLIST_LIMIT) : null;
}

/** The tracks of `/embed/playlist`: the given ids (unknown ones skipped), else the featured. */
export async function playlistTracks(ids: number[]): Promise<TrackJSON[]> {
  if (ids.length > 0) {
    const found = await Promise.all(ids.map((id) => getTrack(id)));
    return found.filter((t): t is TrackJSON => t !== null);
  }
  const featured = await listTracks({ featured: true, limit: PLAYLIST_LIMIT });
  if (featured.length > 0) return featured;
  const pick = await getFeaturedTrack();
  return pick ? [pick] : [];
}

export const trackPageUrl = (id: number) => `${siteOrigin()}/music/${id}`;
export const trackEmbedUrl = (id: number) => `${siteOrigin()}/embed/tracks/${id}`;

/** The 320 px WebP of a cover when it was written, else the cover itself. */
export async function smallCover(
  url: string,
): Promise<{ src: string; width: number; height: number }> {
  const info = await imageInfo(url);
  if (!info) return { src: url, width: 320, height: 320 };
  const width = info.webpWidths.find((w) => w >= 320) ?? null;
  if (width === null) return { src: info.src, width: info.width, height: info.height };
  const src = info.src.replace(/\.[^./]+$/, `-${width}w.webp`);
  return { src, width, height: Math.round((info.height * width) / info.width) };
}

async function embedTrack(track: TrackJSON): Promise<EmbedTrack> {
  const view = trackFor(ANONYMOUS, track);
  const playable = isPlayable(view);
  // The waveform of a track the embed plays (a locked track's peaks are for members only).
  const [cover, peaks] = await Promise.all([
    smallCover(track.coverImage),
    playable ? getTrackPeaks(track.id, track.audioFile) : null,
  ]);
  return {
    id: track.id,
    title: track.title,
    artist: track.artist,
    duration: track.durationSeconds,
    src: playable ? view.audioFile : null,
    locked: view.locked,
    pending: view.locked ? null : audioPendingText(view),
    page: trackPageUrl(track.id),
    cover: cover.src,
    wave: waveformLevels(peaks),
  };
}

type Manifest = { player: string };
const manifestState: { value: Manifest | null } = { value: null };

/**
 * The built script's URL (fingerprinted, under /build/embed/), from the manifest
 * scripts/build-embed.ts writes with `npm run build`; read once per process (it changes only
 * with a new build, which restarts the process).
 */
export function embedScriptUrl(): string | null {
  if (manifestState.value) return manifestState.value.player;
  try {
    const file = path.resolve('build', 'embed-manifest.json');
    manifestState.value = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
    return manifestState.value.player;
  } catch (error) {
    logger.error({ err: error }, 'embed: build/embed-manifest.json is missing: run npm run build');
    return null;
  }
}

const ICON_PLAY = '<svg viewBox="0 0 16 16" aria-hidden="true"><path d="M4 2l10 6-10 6z"/></svg>';

/**
 * The seek bar: a range input, laid over the first track's waveform when any track of the page
 * has one (transparent, so a click on the waveform seeks there and the keys are the range's).
 * The script swaps the path for each track's levels and clips the played part in the accent.
 */
function seekBar(tracks: EmbedTrack[], start: number): string {
  const first = tracks[0] as EmbedTrack;
  const range =
    `<input type="range" id="seek" min="0" max="${first.duration || 0}" step="1" value="${start}" ` +
    `aria-label="Seek" aria-valuetext="${formatClock(start)} of ${formatClock(first.duration)}">`;
  if (!tracks.some((t) => t.wave)) return `<div class="seek" id="seekbox">${range}</div>`;
  const shape = first.wave ? levelsShape(first.wave) : null;
  const columns = shape?.columns ?? 1;
  const played = first.duration > 0 ? Math.round((columns * start * 10) / first.duration) / 10 : 0;
  return (
    `<div class="seek${shape ? ' wave' : ''}" id="seekbox" data-testid="embed-waveform">` +
    `<svg viewBox="0 0 ${columns} ${WAVEFORM_HEIGHT}" preserveAspectRatio="none" aria-hidden="true" focusable="false">` +
    `<defs><path id="wave-path" d="${shape?.d ?? ''}"/><clipPath id="wave-played">` +
    `<rect id="wave-progress" width="${played}" height="${WAVEFORM_HEIGHT}"/></clipPath></defs>` +
    '<use href="#wave-path" class="w0"/><use href="#wave-path" class="w1" clip-path="url(#wave-played)"/>' +
    `</svg>${range}</div>`
  );
}

/** The page, for one track or a list. */
function renderPage(options: {
  tracks: EmbedTrack[];
  theme: EmbedTheme;
  style: string;
  data: EmbedData;
  nonce: string;
  script: string;
  siteName: string;
  list: boolean;
}): string {
  const { tracks, theme, style, data, nonce, script, siteName, list } = options;
  const first = tracks[0];
  if (!first) throw new Error('an embed needs a track');
  const e = escapeHtml;
  const site = e(siteName);
  const controls = first.src
    ? `<div class="row"><button type="button" class="play" id="play" aria-label="Play ${e(first.title)}">${ICON_PLAY}</button>` +
      seekBar(tracks, data.start) +
      `<span class="time" id="time">${formatClock(data.start)} / ${formatClock(first.duration)}</span></div>` +
      `<audio id="audio" preload="none" src="${e(first.src)}"></audio>`
    : !first.locked
      ? `<div class="row"><p class="time" id="pending">${e(first.pending ?? 'Not available')}</p></div>`
      : `<div class="row"><a class="lock" id="lock" href="${e(first.page)}" target="_blank" rel="noopener">` +
        `<span aria-hidden="true">🔒</span> Members only — listen on ${site}</a></div>`;
  const items = list
    ? `<ol aria-label="Tracks">${tracks
        .map(
          (t, i) =>
            `<li><button type="button" data-i="${i}"${i === 0 ? ' aria-current="true"' : ''}>` +
            `<span>${e(t.title)} — ${e(t.artist)}${t.locked ? ' (members only)' : t.src ? '' : ` (${t.pending ?? 'not available'})`}</span>` +
            `<span class="d">${formatClock(t.duration)}</span></button></li>`,
        )
        .join('')}</ol>`
    : '';
  const title = list
    ? `${tracks.length} tracks on ${siteName}`
    : `${first.title} by ${first.artist} on ${siteName}`;
  return `<!doctype html>
<html lang="en" data-theme="${theme}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
<meta name="referrer" content="strict-origin-when-cross-origin">
<title>${e(title)}</title>
<style nonce="${nonce}">${style}</style>
</head><body><main>
<div class="card"><img class="cover" id="cover" src="${e(first.cover)}" alt="" width="120" height="120">
<div class="body"><p class="title" id="title">${e(first.title)}</p><p class="artist" id="artist">${e(first.artist)}</p>
${controls}
<a class="site" id="page" href="${e(first.page)}" target="_blank" rel="noopener">on ${site}</a></div></div>
${items}
</main>
<script type="application/json" id="embed-data" nonce="${nonce}">${jsonForScript(data)}</script>
<script src="${e(script)}" defer nonce="${nonce}"></script>
</body></html>`;
}

const NO_EMBED = (status: number, message: string) =>
  new Response(`${message}\n`, {
    status,
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': `default-src 'none'; frame-ancestors ${embedFrameAncestors()}`,
    },
  });

/** The answer of an embed page for these tracks (404 when there are none). */
export async function embedResponse(
  request: Request,
  tracks: TrackJSON[],
  options: { list: boolean },
): Promise<Response> {
  if (tracks.length === 0) return NO_EMBED(404, 'Track not found');
  const script = embedScriptUrl();
  if (!script) return NO_EMBED(503, 'The embed player is not built');
  const url = new URL(request.url);
  const host = embeddingHost(request.headers.get('referer'), url.host);
  const [embedTracks, siteTheme] = await Promise.all([
    Promise.all(tracks.map(embedTrack)),
    getTheme(),
  ]);
  const start = Math.min(
    parseDeepLinkTime(url.searchParams.get('t')) ?? 0,
    embedTracks[0]?.duration || Infinity,
  );
  const nonce = createNonce();
  const data: EmbedData = {
    tracks: embedTracks,
    start,
    beacon: '/api/plays',
    // Every embed page carries its viewer's play token (a play is counted only with one).
    token: playToken(request, host),
  };
  const theme = embedTheme(url.searchParams.get('theme'));
  const html = renderPage({
    tracks: embedTracks,
    theme,
    style: embedStyle(siteTheme, theme),
    data,
    nonce,
    script,
    siteName: env.SITE_NAME,
    list: options.list,
  });
  return new Response(html, {
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      // A page per Referer (its signed host): never shared by a cache.
      'Cache-Control': 'private, no-store',
      'Content-Security-Policy': embedContentSecurityPolicy(nonce),
    },
  });
}
