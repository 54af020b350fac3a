import fs from 'node:fs';
import path from 'node:path';

import {
  createNonce,
  embedContentSecurityPolicy,
  embedFrameAncestors,
} from '~/document/security-headers.server';
import { imageInfo } from '~/files/image-derivatives.server';
import { getFeaturedTrack, getTrack, listTracks } from '~/models/track.server';
import { env } from '~/platform/env.server';
import { logger } from '~/platform/logger.server';
import { siteOrigin } from '~/platform/site-origin.server';
import type { EmbedData, EmbedTrack } from '~/types/embed';
import type { TrackJSON } from '~/types/entities';
import { ANONYMOUS, audioPendingText, isPlayable, trackFor } from '~/utils/access';
import { escapeHtml, jsonForScript } from '~/utils/html';
import { parseDeepLinkTime } from '~/utils/media-time';

import { embeddingHost, embedToken } from './embed-token.server';

/**
 * The embed pages `/embed/tracks/{id}` and `/embed/playlist` (decision 038): small HTML
 * written here as a string, with the script built from app/embed/player.ts
 * (scripts/build-embed.ts), no hydration, no cookie, no storage, no other host. Locked
 * (members-only) tracks carry no audio URL.
 */

/** The embed's two heights: a card, or a card and the list. Widths 280–1200 px. */
export const EMBED_SIZES = {
  compact: { width: 600, height: 120 },
  list: { width: 600, height: 400 },
} as const;
export type EmbedSize = keyof typeof EMBED_SIZES;
export const EMBED_MIN_WIDTH = 280;
export const EMBED_MAX_WIDTH = 1200;
export const PLAYLIST_LIMIT = 50;

export type EmbedTheme = 'light' | 'dark';
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
  const cover = await smallCover(track.coverImage);
  return {
    id: track.id,
    title: track.title,
    artist: track.artist,
    duration: track.durationSeconds,
    src: isPlayable(view) ? view.audioFile : null,
    locked: view.locked,
    pending: view.locked ? null : audioPendingText(view),
    page: trackPageUrl(track.id),
    cover: cover.src,
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

const fmt = (seconds: number) => {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
};

const STYLE = `
:root{color-scheme:dark;--bg:#101418;--fg:#f4f6f8;--muted:#b4bcc6;--accent:#5eead4;--accent-fg:#06201c;--line:#2b333c}
[data-theme=light]{color-scheme:light;--bg:#ffffff;--fg:#111418;--muted:#4a535d;--accent:#0f766e;--accent-fg:#ffffff;--line:#d5dbe1}
*{box-sizing:border-box}
html,body{margin:0;height:100%}
body{background:var(--bg);color:var(--fg);font:14px/1.35 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;overflow:hidden}
main{display:flex;flex-direction:column;height:100%;min-width:280px}
.card{display:flex;gap:12px;height:120px;flex:none;padding:0 12px 0 0}
.cover{width:120px;height:120px;object-fit:cover;flex:none;background:var(--line)}
.body{flex:1;min-width:0;display:flex;flex-direction:column;justify-content:center;gap:6px}
.title{margin:0;font-size:15px;font-weight:600;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.artist{margin:0;color:var(--muted);white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.row{display:flex;align-items:center;gap:10px}
button,.lock{font:inherit}
.play{width:36px;height:36px;flex:none;border:0;border-radius:50%;background:var(--accent);color:var(--accent-fg);cursor:pointer;display:grid;place-items:center}
.play svg{width:16px;height:16px;fill:currentColor}
input[type=range]{flex:1;min-width:40px;accent-color:var(--accent)}
.time{color:var(--muted);font-variant-numeric:tabular-nums;white-space:nowrap;font-size:12px}
a{color:var(--fg)}
.site{font-size:12px;color:var(--muted)}
.lock{display:inline-block;padding:6px 10px;border:1px solid var(--line);border-radius:6px;color:var(--fg);text-decoration:none}
:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
ol{list-style:none;margin:0;padding:0;overflow-y:auto;border-top:1px solid var(--line);flex:1}
li button{display:flex;width:100%;gap:8px;padding:8px 12px;border:0;border-bottom:1px solid var(--line);background:none;color:var(--fg);text-align:left;cursor:pointer}
li button[aria-current=true]{font-weight:600;color:var(--accent)}
li .d{margin-left:auto;color:var(--muted)}
@media (max-height:200px){ol{display:none}}
@media (max-width:360px){.cover{width:80px;height:80px;align-self:center}.time{display:none}}
`;

const ICON_PLAY = '<svg viewBox="0 0 16 16" aria-hidden="true"><path d="M4 2l10 6-10 6z"/></svg>';

/** The page, for one track or a list. */
function renderPage(options: {
  tracks: EmbedTrack[];
  theme: EmbedTheme;
  data: EmbedData;
  nonce: string;
  script: string;
  siteName: string;
  list: boolean;
}): string {
  const { tracks, theme, data, nonce, script, siteName, list } = options;
  const first = tracks[0];
  if (!first) throw new Error('an embed needs a track');
  const e = escapeHtml;
  const site = e(siteName);
  const controls = first.src
    ? `<div class="row"><button type="button" class="play" id="play" aria-label="Play ${e(first.title)}">${ICON_PLAY}</button>` +
      `<input type="range" id="seek" min="0" max="${first.duration || 0}" step="1" value="${data.start}" aria-label="Seek" aria-valuetext="${fmt(data.start)} of ${fmt(first.duration)}">` +
      `<span class="time" id="time">${fmt(data.start)} / ${fmt(first.duration)}</span></div>` +
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
            `<span class="d">${fmt(t.duration)}</span></button></li>`,
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
<style nonce="${nonce}">${STYLE}</style>
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
  const embedTracks = await Promise.all(tracks.map(embedTrack));
  const start = Math.min(
    parseDeepLinkTime(url.searchParams.get('t')) ?? 0,
    embedTracks[0]?.duration || Infinity,
  );
  const nonce = createNonce();
  const data: EmbedData = {
    tracks: embedTracks,
    start,
    beacon: '/api/plays',
    token: host ? embedToken(host) : null,
  };
  const html = renderPage({
    tracks: embedTracks,
    theme: embedTheme(url.searchParams.get('theme')),
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
