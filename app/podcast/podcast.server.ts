import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

import sharp from 'sharp';

import { mediaKeyFromUrl, mediaStore } from '~/files/media-store.server';
import { contentTypeFor, serveFile } from '~/files/serve-file.server';
import {
  type FeedToken,
  findFeedToken,
  getFeedTokenById,
} from '~/models/podcast-feed-token.server';
import { getMix, type PodcastMix, streamMixes } from '~/models/track-podcast.server';
import { getUserById } from '~/models/user.server';
import { env } from '~/platform/env.server';
import { invariantResponse, notFound } from '~/platform/http-errors.server';
import { Lru } from '~/platform/lru.server';
import { builtValues } from '~/platform/read-cache.server';
import { sign, verify } from '~/platform/signing.server';
import { siteOrigin } from '~/platform/site-origin.server';
import { type PodcastEpisode, podcastRssXml } from '~/podcast/rss';
import { countFeedDownload } from '~/services/analytics.server';
import type { TrackJSON } from '~/types/entities';
import { isMembersOnly } from '~/utils/access';
import { absoluteUrl } from '~/utils/seo/seo';
import { siteToday } from '~/utils/time';

/**
 * The podcast feeds (decision 037): /podcast.xml for everyone, /podcast/private/{token}.xml
 * for a member, their enclosures (counted as feed downloads), the covers, and the signed,
 * expiring media URLs of the private feed.
 */

/** The Podcasting 2.0 namespace for podcast:guid (UUIDv5). */
const PODCAST_GUID_NAMESPACE = 'ead4c236-bf58-58c6-a2c6-a0b28f128cb6';

/** UUID version 5 (RFC 4122 §4.3, SHA-1) of `name` in `namespace`. */
export function uuidV5(name: string, namespace: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const hash = crypto.createHash('sha1').update(ns).update(name, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** podcast:guid of a feed URL: its scheme and trailing slashes removed, then UUIDv5. */
export function podcastGuid(feedUrl: string): string {
  return uuidV5(
    feedUrl.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/+$/, ''),
    PODCAST_GUID_NAMESPACE,
  );
}

export const PODCAST_PATH = '/podcast.xml';
export const PODCAST_COVER_PATH = '/podcast/cover.jpg';
/** A square cover inside Apple's 1400–3000 px. */
export const COVER_SIZE = 1400;
/** A signed media URL lives at least this long, at most a day more (see `signedExpiry`). */
const SIGNED_URL_DAYS = 7;
const DAY_MS = 86_400_000;

/** A mix whose stream is ready (not still transcoding, not failed: decision 035). */
const hasReadyAudio = (track: TrackJSON) => track.audioStatus === 'ready';

const audioFileName = (track: TrackJSON) => track.audioFile.split('/').pop() ?? '';
const coverVersion = (track: TrackJSON) =>
  crypto.createHash('sha256').update(track.coverImage).digest('hex').slice(0, 12);

// --- signed media URLs -------------------------------------------------------------------------

/** What a media URL's signature covers (the `podcast-media` purpose of platform/signing). */
const mediaMessage = (tokenId: string, expiry: number, trackId: number, file: string) =>
  `${tokenId}\n${expiry}\n${trackId}\n${file}`;

/**
 * The expiry written into today's signed URLs: 7 to 8 days from now, on a day boundary (UTC),
 * so a feed fetched twice in a day gives the same URLs (podcast apps and caches keep them).
 */
export function signedExpiry(now = Date.now()): number {
  return (Math.floor(now / DAY_MS) + 1 + SIGNED_URL_DAYS) * (DAY_MS / 1000);
}

export function signedMediaPath(
  tokenId: string,
  track: Pick<TrackJSON, 'id' | 'audioFile'>,
  expiry: number,
): string {
  const file = track.audioFile.split('/').pop() ?? '';
  const sig = sign('podcast-media', mediaMessage(tokenId, expiry, track.id, file));
  return `/podcast/media/${encodeURIComponent(tokenId)}/${expiry}/${sig}/${track.id}/${encodeURIComponent(file)}`;
}

export function signatureValid(
  sig: string,
  tokenId: string,
  expiry: number,
  trackId: number,
  file: string,
): boolean {
  return verify('podcast-media', mediaMessage(tokenId, expiry, trackId, file), sig);
}

// --- feeds ---------------------------------------------------------------------------------------

/** An enclosure's bytes and type, or null when its file is missing (no episode then). */
type EnclosureStat = { length: number; type: string } | null;

/** How many files are looked at together while the stats are gathered. */
const STAT_CONCURRENCY = 16;

/**
 * The whole-feed memos (decision 045): a feed is the same for every reader until a write, so it
 * is built once per write (from a cursor with a projection, `streamMixes`), not per request. The
 * public feed's XML is kept; private feeds differ per member only in their signed enclosure
 * URLs, so what they share (each episode file's size and type) is kept, not their XML.
 */
const feedMemo = builtValues<string>(2);
const statMemo = builtValues<Map<string, EnclosureStat>>(1);

async function statOf(audioFile: string): Promise<EnclosureStat> {
  const key = mediaKeyFromUrl(audioFile);
  const stat = key ? await mediaStore().stat(key) : null;
  return key && stat ? { length: stat.size, type: contentTypeFor(key).type } : null;
}

/** Each ready mix's enclosure stat, by audio file, a few files at a time. */
function enclosureStats(): Promise<Map<string, EnclosureStat>> {
  return statMemo.get('mixes', async () => {
    const stats = new Map<string, EnclosureStat>();
    let batch: string[] = [];
    const flush = async () => {
      const found = await Promise.all(batch.map(statOf));
      batch.forEach((file, i) => stats.set(file, found[i] ?? null));
      batch = [];
    };
    for await (const mix of streamMixes()) {
      if (!hasReadyAudio(mix) || stats.has(mix.audioFile)) continue;
      batch.push(mix.audioFile);
      if (batch.length >= STAT_CONCURRENCY) await flush();
    }
    await flush();
    return stats;
  });
}

function episodeOf(
  track: PodcastMix,
  origin: string,
  enclosurePath: string,
  stat: NonNullable<EnclosureStat>,
): PodcastEpisode {
  return {
    guid: track.podcastGuid,
    title: track.title,
    artist: track.artist,
    link: absoluteUrl(origin, `/music/${track.id}`),
    pubDate: track.createdAt,
    description: track.description,
    tracklist: track.tracklist,
    durationSeconds: track.durationSeconds,
    enclosure: { url: absoluteUrl(origin, enclosurePath), length: stat.length, type: stat.type },
    image: absoluteUrl(origin, `/podcast/covers/${track.id}/${coverVersion(track)}.jpg`),
    chaptersUrl:
      track.tracklist.length > 0 ? absoluteUrl(origin, `/music/${track.id}/chapters.json`) : null,
  };
}

/**
 * The episodes of a feed, newest first: every ready mix `include` admits whose file exists,
 * streamed from the tracks (only the fields a feed prints).
 */
async function feedEpisodes(
  include: (mix: PodcastMix) => boolean,
  enclosurePath: (mix: PodcastMix) => string,
): Promise<PodcastEpisode[]> {
  const origin = siteOrigin();
  const stats = await enclosureStats();
  const episodes: PodcastEpisode[] = [];
  for await (const mix of streamMixes()) {
    if (!hasReadyAudio(mix) || !include(mix)) continue;
    // A mix newer than the stats (written while they were gathered) is looked at now.
    const stat = stats.has(mix.audioFile) ? stats.get(mix.audioFile) : await statOf(mix.audioFile);
    if (stat) episodes.push(episodeOf(mix, origin, enclosurePath(mix), stat));
  }
  return episodes;
}

function channelXml(feedPath: string, title: string, episodes: PodcastEpisode[]): string {
  const origin = siteOrigin();
  const selfUrl = absoluteUrl(origin, feedPath);
  return podcastRssXml({
    title,
    link: absoluteUrl(origin, '/music'),
    selfUrl,
    description: `DJ mixes, live sets and radio shows from ${env.SITE_NAME}.`,
    language: 'en-us',
    image: absoluteUrl(origin, PODCAST_COVER_PATH),
    author: env.SITE_NAME,
    ownerName: env.SITE_NAME,
    ownerEmail: env.CONTACT_EMAIL,
    // The public feed's own guid; a private feed is a copy of it for one member, not another show.
    guid: podcastGuid(absoluteUrl(origin, PODCAST_PATH)),
    episodes,
  });
}

/**
 * /podcast.xml: every public, ready mix (members-only ones never), newest first: the whole
 * archive, as podcast apps expect. Built once per write (and per day: early access turns a
 * members-only mix public at midnight without a write), shared by every request until then.
 */
export async function publicPodcastXml(today: string = siteToday()): Promise<string> {
  return feedMemo.get(`public\n${siteOrigin()}\n${today}`, async () =>
    channelXml(
      PODCAST_PATH,
      `${env.SITE_NAME} mixes`,
      await feedEpisodes(
        (t) => !isMembersOnly(t, today),
        (t) => `/podcast/episodes/${t.id}/${encodeURIComponent(audioFileName(t))}`,
      ),
    ),
  );
}

/** The live token of a private feed URL whose member still exists, or null. */
async function liveToken(find: () => Promise<FeedToken | null>): Promise<FeedToken | null> {
  const token = await find();
  if (!token) return null;
  return (await getUserById(token.userId)) ? token : null;
}

/**
 * /podcast/private/{token}.xml: every ready mix, members-only ones included, each enclosure a
 * signed URL bound to this token. Null (a 404) for an unknown or revoked token.
 */
export async function privatePodcastXml(token: string): Promise<string | null> {
  const feed = await liveToken(() => findFeedToken(token));
  if (!feed) return null;
  const expiry = signedExpiry();
  return channelXml(
    `/podcast/private/${token}.xml`,
    `${env.SITE_NAME} mixes (members)`,
    await feedEpisodes(
      () => true,
      (t) => signedMediaPath(feed.id, t, expiry),
    ),
  );
}

// --- enclosures ----------------------------------------------------------------------------------

/** A counted enclosure answer: any bytes sent (200 or 206) of a GET are one feed download. */
function counted(request: Request, trackId: number, response: Response): Response {
  if (response.status === 200 || response.status === 206) countFeedDownload(request, trackId);
  return response;
}

async function mixWithFile(trackId: string, file: string): Promise<TrackJSON | null> {
  const id = Number(trackId);
  if (!/^\d{1,10}$/.test(trackId)) return null;
  const track = await getMix(id);
  if (!track || !hasReadyAudio(track) || audioFileName(track) !== file) return null;
  return track;
}

/** GET/HEAD /podcast/episodes/{id}/{file}: a public mix's audio (Range, 206, 304 as /uploads). */
export async function servePublicEpisode(
  request: Request,
  params: { trackId: string; file: string },
): Promise<Response> {
  const track = await mixWithFile(params.trackId, params.file);
  if (!track || isMembersOnly(track)) return notFound();
  const response = await serveFile(request, {
    store: mediaStore(),
    key: mediaKeyFromUrl(track.audioFile),
    // As public audio on /uploads: a track can turn members-only, so shared caches keep it briefly.
    cacheControl: 'public, max-age=0, s-maxage=30, stale-while-revalidate=60',
  });
  return counted(request, track.id, response);
}

/**
 * GET/HEAD /podcast/media/{tokenId}/{expiry}/{sig}/{id}/{file}: a private feed's enclosure, for
 * any mix, without a session. Refused before any byte when the signature is not this server's
 * for exactly this token, expiry, track and file (403), when it has expired (403), or when the
 * token was revoked or its member deleted (404).
 */
export async function serveSignedEpisode(
  request: Request,
  params: { tokenId: string; expiry: string; sig: string; trackId: string; file: string },
): Promise<Response> {
  const forbidden = { status: 403, headers: { 'Cache-Control': 'private, no-store' } };
  const expiry = Number(params.expiry);
  invariantResponse(/^\d{1,12}$/.test(params.expiry), 'Forbidden', forbidden);
  invariantResponse(/^\d{1,10}$/.test(params.trackId), 'Forbidden', forbidden);
  invariantResponse(
    signatureValid(params.sig, params.tokenId, expiry, Number(params.trackId), params.file),
    'Forbidden',
    forbidden,
  );
  invariantResponse(expiry * 1000 > Date.now(), 'This link has expired.', forbidden);
  const token = await liveToken(() => getFeedTokenById(params.tokenId));
  if (!token) return notFound('Not Found', { headers: { 'Cache-Control': 'private, no-store' } });
  const track = await mixWithFile(params.trackId, params.file);
  if (!track) return notFound();
  const response = await serveFile(request, {
    store: mediaStore(),
    key: mediaKeyFromUrl(track.audioFile),
    // For this member's app only; asked again each time (the token may be revoked).
    cacheControl: 'private, no-cache',
  });
  return counted(request, track.id, response);
}

// --- covers ----------------------------------------------------------------------------------------

const coverCache = new Lru<string, Buffer>({ maxEntries: 32 });

/** A pure cache: each entry is keyed by content that never changes under its key. */
async function cached(key: string, make: () => Promise<Buffer>): Promise<Buffer> {
  const hit = coverCache.get(key);
  if (hit) return hit;
  const made = await make();
  coverCache.set(key, made);
  return made;
}

const squareJpeg = (input: Buffer, density?: number) =>
  sharp(input, density ? { density } : {})
    .resize(COVER_SIZE, COVER_SIZE, { fit: 'cover' })
    .flatten({ background: '#140428' })
    .jpeg({ quality: 85, mozjpeg: true })
    .toBuffer();

/**
 * The channel's cover: the site's logo (public/favicon.svg, a square vector drawing) rendered at
 * 1400 × 1400, so it is sharp at Apple's size where a photo would have to be upscaled.
 */
export async function channelCover(): Promise<Buffer> {
  return cached('channel', async () => {
    const svg = await fs.readFile(path.resolve('public', 'favicon.svg'));
    return squareJpeg(svg, Math.ceil((72 * COVER_SIZE) / 512));
  });
}

async function readCoverSource(url: string): Promise<Buffer | null> {
  const key = mediaKeyFromUrl(url);
  if (key) {
    if (!(await mediaStore().stat(key))) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of await mediaStore().open(key)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }
  // A seeded track's cover from the site's own public folder (e.g. /placeholder-album.jpg).
  if (/^\/[A-Za-z0-9._-]+\.(jpe?g|png|webp)$/.test(url)) {
    return fs.readFile(path.resolve('public', url.slice(1))).catch(() => null);
  }
  return null;
}

/** A mix's cover as a 1400 px square JPEG (itunes:image), or null (404). */
export async function episodeCover(trackId: string, file: string): Promise<Buffer | null> {
  if (!/^\d{1,10}$/.test(trackId)) return null;
  const track = await getMix(Number(trackId));
  if (!track || file !== `${coverVersion(track)}.jpg`) return null;
  return cached(`${track.id}:${file}`, async () => {
    const source = await readCoverSource(track.coverImage);
    return source ? squareJpeg(source) : channelCover();
  });
}

/** The absolute address of a member's private feed (links come from SITE_URL only). */
export function privateFeedUrl(token: string): string {
  return absoluteUrl(siteOrigin(), `/podcast/private/${token}.xml`);
}
