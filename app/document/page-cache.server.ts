import type { IncomingMessage, ServerResponse } from 'node:http';

import {
  isFresh,
  type Stamp,
  stamp,
  versionCheck,
  withinStaleBound,
} from '~/platform/data-version.server';
import { env } from '~/platform/env.server';
import { Lru } from '~/platform/lru.server';
import { processCacheSizes } from '~/platform/memory.server';
import { processSingleton } from '~/platform/process-state.server';
import { countRoundTrips } from '~/platform/round-trips.server';
import { siteToday } from '~/utils/time';

import { wantsActivityStreams } from './negotiation.server';
import {
  flightOf,
  knownUncacheable,
  lead,
  ledBy,
  markCacheable,
  markUncacheable,
} from './page-flights.server';
import { createNonce } from './security-headers.server';

/**
 * The page cache (decision 039): anonymous GETs of public pages and public /api answers are
 * served from memory, without running their loaders, while nothing they could show has changed.
 *
 * - **What is cached** is decided by the answer itself, so a new route is covered without a
 *   list to update: a 200 whose `Cache-Control` is `public` (the site's shared-cache policy,
 *   `publicCacheHeaders` / `applyDocumentCacheHeaders`: already never given to a personal
 *   request, a Set-Cookie or a private path), no `Set-Cookie`, `Vary` on nothing but `Cookie`
 *   and `Accept-Encoding`, at most MAX_ENTRY_BYTES; all of them together at most half the cache
 *   budget (app/platform/memory.server.ts, decision 040), least recently used out first.
 * - **Who gets it**: a GET with no `Cookie` or `Authorization` header at all, no conditional or
 *   Range header, outside NEVER_CACHED (back office, accounts, embeds, media). Anyone with a
 *   cookie (a session, a toast, anything) gets a fresh render every time.
 * - **Key**: host + URL + the site's day (`siteToday`, America/New_York): early access days,
 *   "upcoming" shows and the weekly featured track flip at midnight without any write.
 * - **Freshness**: each entry keeps the stamp of the data version taken *before* its loaders
 *   ran (data-version.server.ts): every write of this process invalidates at once, another
 *   instance's within the poll (≤ 1 s); when the version cannot be read an entry lives 0.5 s.
 *   A request asks for the version first (`versionCheck`): once the trusted one is too old it
 *   waits for the one poll in flight rather than treat every entry as stale (decision 043).
 * - **Under load** (decision 043): one render per key at a time (page-flights.server.ts:
 *   requests that come meanwhile wait for it and are served from what it stored); while that
 *   render runs, an entry that is no longer fresh but still within the bound (`STALE_MS` after
 *   the data it holds was read) is served to the others instead (stale-while-revalidate).
 *   The render itself is a visitor's request: the leader gets the fresh page.
 * - **Per response**: the CSP nonce is new on every hit (the stored body and headers are split
 *   at the old one); a hit of a document counts a page view, as a render does.
 */

const MAX_ENTRIES = 300;
const MAX_ENTRY_BYTES = 1024 * 1024;
/** Half the cache budget (CACHE_MB, sized to the machine: decision 040). */
const maxTotalBytes = () => processCacheSizes().pageCacheBytes;

/** Paths whose answers are never cached, whatever their headers say. */
const NEVER_CACHED = [
  '/admin',
  '/api/admin',
  '/account',
  '/auth',
  '/embed',
  '/uploads',
  // The feeds and their enclosures (decision 037): every download is counted, and a private
  // feed's signed URL is checked against its token on each request.
  '/podcast',
  '/healthz',
];

const PER_RESPONSE_HEADERS = new Set(['server-timing', 'date', 'x-request-id', 'set-cookie']);

type Entry = {
  status: number;
  /** Header values split at the nonce (one part when it has none). */
  headers: [name: string, parts: string[]][];
  body: Buffer[];
  bytes: number;
  document: boolean;
  made: Stamp;
};

type PageCacheState = {
  /** Least recently used out first, past MAX_ENTRIES or the byte budget. */
  entries: Lru<string, Entry>;
  hits: number;
  misses: number;
  /** Served an entry no longer fresh, within the bound, while another request rendered it. */
  stale: number;
  /** Waited for another request's render of the same key. */
  waits: number;
};

declare module '~/platform/process-state.server' {
  interface ProcessStateRegistry {
    pageCache: PageCacheState;
  }
}

const state = processSingleton('pageCache', (): PageCacheState => ({
  entries: new Lru({ maxEntries: MAX_ENTRIES, maxSize: maxTotalBytes, sizeOf: (e) => e.bytes }),
  hits: 0,
  misses: 0,
  stale: 0,
  waits: 0,
}));

export const pageCacheStats = () => ({
  entries: state.entries.size,
  bytes: state.entries.totalSize,
  hits: state.hits,
  misses: state.misses,
  stale: state.stale,
  waits: state.waits,
});

export function clearPageCache(): void {
  state.entries.clear();
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

const neverCached = (path: string) =>
  NEVER_CACHED.some((p) => path === p || path.startsWith(`${p}/`) || path.startsWith(`${p}.`));

/** The cache key of a request, or null when it must go to the routes. */
export function pageCacheKey(req: IncomingMessage): string | null {
  if (!env.PAGE_CACHE || req.method !== 'GET') return null;
  const h = req.headers;
  if (h.cookie || h.authorization || h.range || h['if-none-match'] || h['if-modified-since'])
    return null;
  if (wantsActivityStreams(h.accept)) return null; // HTML only is kept (decision 054)
  const url = req.url ?? '/';
  if (neverCached(pathOf(url))) return null;
  return `${h.host ?? ''}\n${url}\n${siteToday()}`;
}

/** What counting a view reads of a request (analytics' `CountedRequest`). */
export type ViewedRequest = {
  method: string;
  url: string;
  headers: { get(name: string): string | null };
};

/** A Node request seen as counting reads it (a hit has no Fetch Request). */
export function viewedRequest(req: IncomingMessage): ViewedRequest {
  return {
    method: req.method ?? 'GET',
    url: `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`,
    headers: {
      get(name: string) {
        const value = req.headers[name.toLowerCase()];
        return Array.isArray(value) ? value.join(', ') : (value ?? null);
      },
    },
  };
}

/**
 * Middleware: answer a cached page, or pass on. Must run after the trust boundary (hosts,
 * origins) and before the routes. `countView` counts a hit of a document as a page view
 * (services/analytics' countPageView, wired in entry.server).
 */
export const pageCacheMiddleware =
  (countView: (request: ViewedRequest, status: number) => void) =>
  (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void =>
    servePageFromCache(req, res, next, countView);

function servePageFromCache(
  req: IncomingMessage,
  res: ServerResponse,
  next: (error?: unknown) => void,
  countView: (request: ViewedRequest, status: number) => void,
): void {
  const key = pageCacheKey(req);
  if (!key) {
    next();
    return;
  }
  const check = versionCheck();
  if (!check) {
    answerOrRender(key, req, res, next, countView);
    return;
  }
  check.then(() => answerOrRender(key, req, res, next, countView)).catch(next);
}

/** A waiter that found its leader's entry already stale tries again at most this often. */
const MAX_ROUNDS = 3;

function answerOrRender(
  key: string,
  req: IncomingMessage,
  res: ServerResponse,
  next: (error?: unknown) => void,
  countView: (request: ViewedRequest, status: number) => void,
  round = 0,
): void {
  const entry = state.entries.peek(key);
  if (entry && isFresh(entry.made)) {
    sendEntry(key, entry, req, res, countView);
    return;
  }
  const usable = entry && withinStaleBound(entry.made) ? entry : undefined;
  if (entry && !usable) state.entries.delete(key);
  const flight = flightOf(key);
  if (!flight) {
    // Nobody renders this page now: this request does, for everyone.
    lead(key, req, res);
    next();
    return;
  }
  if (usable) {
    state.stale += 1;
    sendEntry(key, usable, req, res, countView);
    return;
  }
  if (round >= MAX_ROUNDS || knownUncacheable(key)) {
    next();
    return;
  }
  state.waits += 1;
  flight.done
    .then(() => {
      if (flight.outcome === 'stored') answerOrRender(key, req, res, next, countView, round + 1);
      else next();
    })
    .catch(next);
}

function sendEntry(
  key: string,
  entry: Entry,
  req: IncomingMessage,
  res: ServerResponse,
  countView: (request: ViewedRequest, status: number) => void,
): void {
  state.hits += 1;
  // Now the most recently used.
  state.entries.get(key);
  const nonce =
    entry.body.length > 1 || entry.headers.some(([, p]) => p.length > 1) ? createNonce() : '';
  res.statusCode = entry.status;
  for (const [name, parts] of entry.headers) res.setHeader(name, parts.join(nonce));
  if (entry.document) countView(viewedRequest(req), entry.status);
  if (entry.body.length === 1) {
    res.end(entry.body[0]);
    return;
  }
  const pieces: Buffer[] = [];
  const value = Buffer.from(nonce);
  entry.body.forEach((part, i) => {
    if (i > 0) pieces.push(value);
    pieces.push(part);
  });
  res.end(Buffer.concat(pieces));
}

function splitBuffer(buffer: Buffer, separator: string): Buffer[] {
  if (!separator) return [buffer];
  const sep = Buffer.from(separator);
  const parts: Buffer[] = [];
  let from = 0;
  for (;;) {
    const at = buffer.indexOf(sep, from);
    if (at === -1) break;
    parts.push(buffer.subarray(from, at));
    from = at + sep.length;
  }
  parts.push(buffer.subarray(from));
  return parts.map((p) => Buffer.from(p));
}

/** Whether an answer may be kept for anonymous visitors (see the top of this file). */
export function isCacheableAnswer(response: Response): boolean {
  if (response.status !== 200 || !response.body) return false;
  const h = response.headers;
  if (h.has('set-cookie')) return false;
  const cacheControl = (h.get('cache-control') ?? '').toLowerCase();
  if (!/\bpublic\b/.test(cacheControl) || /\b(private|no-store|no-cache)\b/.test(cacheControl))
    return false;
  const vary = (h.get('vary') ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
  if (vary.some((v) => v !== 'cookie' && v !== 'accept-encoding' && v !== 'accept')) return false;
  const type = h.get('content-type') ?? '';
  return type !== '' && !/event-stream/i.test(type);
}

function store(key: string, made: Stamp, response: Response, body: Buffer): void {
  if (body.length > MAX_ENTRY_BYTES) return;
  // The nonce of this render (documents): every hit gets a new one in its place.
  const nonce = /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1];
  const headers: [string, string[]][] = [];
  for (const name of new Set(response.headers.keys())) {
    // Per response: the request id and the log's own headers are the server's, not the page's.
    if (PER_RESPONSE_HEADERS.has(name)) continue;
    const value = response.headers.get(name) ?? '';
    headers.push([name, nonce ? value.split(nonce) : [value]]);
  }
  const entry: Entry = {
    status: response.status,
    headers,
    body: nonce ? splitBuffer(body, nonce) : [body],
    bytes: body.length,
    document: /^text\/html/i.test(response.headers.get('content-type') ?? ''),
    made,
  };
  state.entries.set(key, entry);
}

/**
 * Run the routes for a request the cache did not answer: the data version is stamped before
 * they run, their database round trips are counted, and a cacheable answer is kept (its body
 * passes through unchanged while it is recorded).
 */
export async function answerAndRemember(
  req: IncomingMessage,
  handle: () => Promise<Response>,
): Promise<Response> {
  const key = pageCacheKey(req);
  const made = key ? stamp() : null;
  if (key) state.misses += 1;
  // The render others may be waiting for (page-flights.server.ts); settled however it ends.
  const flight = ledBy(req);
  const { scope, result } = countRoundTrips(handle);
  let response: Response;
  try {
    response = await result;
  } catch (error) {
    flight?.settle('ended');
    throw error;
  }
  if (env.DB_ROUND_TRIP_HEADER)
    response.headers.append(
      'Server-Timing',
      `db;desc="commands=${scope.commands} round-trips=${scope.waves}"`,
    );
  // A render that read a collection whose writes bump no version (a queue, sessions, counts:
  // content-collections.server.ts) could not be judged fresh later: not kept (decision 043).
  if (!key || !made || scope.unversioned || !isCacheableAnswer(response) || !response.body) {
    if (key) markUncacheable(key, made);
    flight?.settle('uncacheable');
    return response;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const recorder = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      size += chunk.byteLength;
      if (size <= MAX_ENTRY_BYTES) chunks.push(chunk);
      controller.enqueue(chunk);
    },
    flush() {
      const body = size > MAX_ENTRY_BYTES ? null : Buffer.concat(chunks);
      // A render that failed midway is not a page (documents end with </html>).
      const document = /^text\/html/i.test(response.headers.get('content-type') ?? '');
      if (!body || (document && !body.includes('</html>'))) {
        markUncacheable(key, made);
        flight?.settle('uncacheable');
        return;
      }
      store(key, made, response, body);
      markCacheable(key);
      flight?.settle('stored');
    },
  });
  return new Response(response.body.pipeThrough(recorder), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
