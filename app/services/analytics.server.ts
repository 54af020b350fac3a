import crypto from 'node:crypto';

import { isbot } from 'isbot';

import { isPrivatePath } from '~/document/cache-headers.server';
import {
  addDailyCounts,
  type DailyCount,
  firstSightings,
  REPEAT_WINDOW_SECONDS,
} from '~/models/stats.server';
import { env } from '~/platform/env.server';
import { logger } from '~/platform/logger.server';
import { processSingleton } from '~/platform/process-state.server';
import { clientIp } from '~/platform/rate-limit.server';
import { keyedDigest, legacyDigest } from '~/platform/signing.server';
import { siteToday } from '~/utils/time';

/**
 * Counting plays and visits without cookies or personal data (decision 024).
 *
 * - A client is a hash of its address and user agent with a salt that changes every day
 *   (an HMAC of the session secret and the date: the same on every instance, stored nowhere).
 *   The hash is kept 30 minutes at most (`stats_seen`), the address and user agent never.
 * - Events are buffered in this process and written every FLUSH_MS as `$inc` upserts of daily
 *   aggregates, so a crash loses at most the last FLUSH_MS of counts. Repeats within 30
 *   minutes are recognised in the database, so several instances count a client once.
 * - Bots (`isbot`) are not counted. With ANALYTICS=false nothing is counted.
 */
export const FLUSH_MS = 5_000;

/**
 * What counting reads of a request: a Fetch `Request`, or the page cache's view of a Node
 * request (a hit is answered before any Fetch Request exists, and is a view all the same).
 */
export type CountedRequest = {
  method: string;
  url: string;
  headers: { get(name: string): string | null };
};
const MAX_PENDING = 50_000;

type Pending = {
  metric: 'play' | 'start' | 'view' | 'download';
  key: string;
  client: string;
  day: string;
  referrer: string | null;
  /** A play from an embed: the host of the site that framed it (decision 038). */
  embedHost?: string;
};

type Batch = { pending: Pending[]; timer: NodeJS.Timeout | null; flushing: Promise<void> | null };

declare module '~/platform/process-state.server' {
  interface ProcessStateRegistry {
    analytics: Batch;
  }
}
const state = processSingleton('analytics', (): Batch => ({
  pending: [],
  timer: null,
  flushing: null,
}));

/**
 * The day's salt: the `analytics-salt` digest of the date (platform/signing). `legacy`: as it
 * was made before decision 049, for play tokens issued before then (decision 047).
 */
const saltOf = (day: string, legacy: boolean) =>
  (legacy ? legacyDigest : keyedDigest)('analytics-salt', `analytics|${day}`);

/** The day's pseudonym of this client: not reversible, different tomorrow. */
export function clientHash(
  request: CountedRequest,
  day: string,
  options: { legacy?: boolean } = {},
): string {
  return crypto
    .createHash('sha256')
    .update(saltOf(day, options.legacy ?? false))
    .update(clientIp(request))
    .update('\0')
    .update(request.headers.get('user-agent') ?? '')
    .digest('base64url')
    .slice(0, 22);
}

const isBot = (request: CountedRequest) => isbot(request.headers.get('user-agent') ?? '');

function enqueue(event: Pending): void {
  if (state.pending.length >= MAX_PENDING) return; // the database is not keeping up: drop
  state.pending.push(event);
  state.timer ??= setTimeout(() => void flushStats(), FLUSH_MS).unref();
}

/** A document GET of a public page answered 200: a view, and a visit once per 30 minutes. */
export function countPageView(request: CountedRequest, status: number): void {
  if (!env.ANALYTICS || request.method !== 'GET' || status !== 200 || isBot(request)) return;
  const url = new URL(request.url);
  if (isPrivatePath(url.pathname)) return;
  let referrer: string | null = null;
  try {
    const from = request.headers.get('referer');
    const host = from ? new URL(from).host : null;
    if (host && host !== url.host) referrer = host.slice(0, 200);
  } catch {
    // not a URL: no referrer
  }
  const day = siteToday();
  enqueue({
    metric: 'view',
    key: url.pathname.slice(0, 300),
    client: clientHash(request, day),
    day,
    referrer,
  });
}

/**
 * The player's report: a track sounded for 30 s or reached its end (POST /api/plays). From an
 * embed, `embedHost` is the host of the page that framed it, already verified from the embed's
 * signed play token (services/play-token.server.ts): counted as `embed` with the play, once.
 */
export function countPlay(request: Request, trackId: number, embedHost?: string): void {
  if (!env.ANALYTICS || isBot(request)) return;
  const day = siteToday();
  enqueue({
    metric: 'play',
    key: String(trackId),
    client: clientHash(request, day),
    day,
    referrer: null,
    ...(embedHost ? { embedHost: embedHost.slice(0, 200) } : {}),
  });
}

/** A request for an audio file from its first byte: a play start (the only sign without JS). */
export function countPlayStart(request: CountedRequest, audioPath: string): void {
  if (!env.ANALYTICS || request.method !== 'GET' || isBot(request)) return;
  const range = request.headers.get('range');
  if (range && !/^bytes=0-/.test(range.trim())) return;
  const day = siteToday();
  enqueue({
    metric: 'start',
    key: audioPath.slice(0, 300),
    client: clientHash(request, day),
    day,
    referrer: null,
  });
}

/** Podcast apps and their media players, by user agent (decision 037). */
const PODCAST_APPS =
  /podcast|overcast|pocket ?casts|castro|castbox|antennapod|applecoremedia|itunes|spotify|stitcher|player ?fm|podbean|podverse|fountain|gpodder|deezer|audible/i;

/**
 * A podcast app's request for an episode's bytes (a GET answered 200 or 206, from any byte):
 * one feed download per client, episode and day, however many ranges it asks for (decision 037).
 */
export function countFeedDownload(request: Request, trackId: number): void {
  if (!env.ANALYTICS || request.method !== 'GET') return;
  const agent = request.headers.get('user-agent') ?? '';
  // isbot counts many podcast apps ("Overcast/3.0 (+http://overcast.fm/)", "Pocket Casts") as
  // bots: here they are the listeners, so a known podcast app is never a bot.
  if (isbot(agent) && !PODCAST_APPS.test(agent)) return;
  const day = siteToday();
  enqueue({
    metric: 'download',
    key: String(trackId),
    client: clientHash(request, day),
    day,
    referrer: null,
  });
}

/** Write what is buffered (also called at shutdown and by tests). */
export async function flushStats(): Promise<void> {
  if (state.timer) clearTimeout(state.timer);
  state.timer = null;
  await state.flushing;
  const batch = state.pending;
  state.pending = [];
  if (batch.length === 0) return;
  state.flushing = writeBatch(batch)
    .catch((error: unknown) => {
      logger.error({ err: error }, 'analytics: counts not written');
    })
    .finally(() => {
      state.flushing = null;
    });
  await state.flushing;
}

async function writeBatch(batch: Pending[]): Promise<void> {
  const counts: DailyCount[] = [];
  // What counts only the first time in 30 minutes, by its sighting's id.
  const once = new Map<string, DailyCount[]>();
  const onceOnly = (id: string, add: DailyCount[]) => {
    if (!once.has(id)) once.set(id, add);
  };
  // Downloads count once a day: their sightings live a day (see stats.server).
  const daily = new Map<string, DailyCount[]>();
  for (const e of batch) {
    if (e.metric === 'download') {
      const id = `${e.day}|download|${e.key}|${e.client}`;
      if (!daily.has(id)) daily.set(id, [{ day: e.day, metric: 'download', key: e.key, n: 1 }]);
    } else if (e.metric === 'view') {
      counts.push({ day: e.day, metric: 'view', key: e.key, n: 1 });
      onceOnly(`${e.day}|visit|${e.client}`, [
        { day: e.day, metric: 'visit', key: '', n: 1 },
        ...(e.referrer ? [{ day: e.day, metric: 'referrer' as const, key: e.referrer, n: 1 }] : []),
      ]);
    } else {
      onceOnly(`${e.day}|${e.metric}|${e.key}|${e.client}`, [
        { day: e.day, metric: e.metric, key: e.key, n: 1 },
        ...(e.embedHost ? [{ day: e.day, metric: 'embed' as const, key: e.embedHost, n: 1 }] : []),
      ]);
    }
  }
  const fresh = await firstSightings([...once.keys()]);
  for (const [id, add] of once) if (fresh.has(id)) counts.push(...add);
  if (daily.size > 0) {
    const dayAhead = new Date(Date.now() + 24 * 3600_000 - REPEAT_WINDOW_SECONDS * 1000);
    const freshToday = await firstSightings([...daily.keys()], dayAhead);
    for (const [id, add] of daily) if (freshToday.has(id)) counts.push(...add);
  }
  await addDailyCounts(counts);
}
