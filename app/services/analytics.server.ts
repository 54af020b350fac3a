import crypto from 'node:crypto';

import { isbot } from 'isbot';

import { isPrivatePath } from '~/document/cache-headers.server';
import { addDailyCounts, type DailyCount, firstSightings } from '~/models/stats.server';
import { env } from '~/platform/env.server';
import { logger } from '~/platform/logger.server';
import { clientIp } from '~/platform/rate-limit.server';
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
  metric: 'play' | 'start' | 'view';
  key: string;
  client: string;
  day: string;
  referrer: string | null;
};

declare global {
  var __nightShoreAnalytics:
    | { pending: Pending[]; timer: NodeJS.Timeout | null; flushing: Promise<void> | null }
    | undefined;
}
const state = (globalThis.__nightShoreAnalytics ??= { pending: [], timer: null, flushing: null });

const saltOf = (day: string) =>
  crypto
    .createHmac('sha256', env.SESSION_SECRETS[0] ?? env.SESSION_SECRET ?? 'night-shore')
    .update(`analytics|${day}`)
    .digest();

/** The day's pseudonym of this client: not reversible, different tomorrow. */
export function clientHash(request: CountedRequest, day: string): string {
  return crypto
    .createHash('sha256')
    .update(saltOf(day))
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

/** The player's report: a track sounded for 30 s or reached its end (POST /api/plays). */
export function countPlay(request: Request, trackId: number): void {
  if (!env.ANALYTICS || isBot(request)) return;
  const day = siteToday();
  enqueue({
    metric: 'play',
    key: String(trackId),
    client: clientHash(request, day),
    day,
    referrer: null,
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
  for (const e of batch) {
    if (e.metric === 'view') {
      counts.push({ day: e.day, metric: 'view', key: e.key, n: 1 });
      onceOnly(`${e.day}|visit|${e.client}`, [
        { day: e.day, metric: 'visit', key: '', n: 1 },
        ...(e.referrer ? [{ day: e.day, metric: 'referrer' as const, key: e.referrer, n: 1 }] : []),
      ]);
    } else {
      onceOnly(`${e.day}|${e.metric}|${e.key}|${e.client}`, [
        { day: e.day, metric: e.metric, key: e.key, n: 1 },
      ]);
    }
  }
  const fresh = await firstSightings([...once.keys()]);
  for (const [id, add] of once) if (fresh.has(id)) counts.push(...add);
  await addDailyCounts(counts);
}
