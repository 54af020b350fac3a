import crypto from 'node:crypto';
import { Transform } from 'node:stream';

import type { EntryContext } from '@remix-run/node';

import { Lru } from '~/platform/lru.server';
import { processCacheSizes } from '~/platform/memory.server';
import { processSingleton } from '~/platform/process-state.server';
import { siteToday } from '~/utils/time';

import { hasPersonalCookie } from './cache-headers.server';

/**
 * A memo of the server render for anonymous visitors: the HTML of a page is a function of its
 * URL, the loaders' data, the build and the day (the pages compute "upcoming" from today), so we
 * key it by a hash of exactly those. The loaders still run on every request (cheap when their
 * queries hit the data cache): a write changes their data, the hash changes, and the page is
 * rendered afresh — an admin's change shows at once, with no invalidation step that could be
 * forgotten.
 *
 * Only 200 GETs without a personal cookie (session, flash toast), without Set-Cookie, without
 * errors and with JSON-like loader data (no deferred promises) are memoised. The CSP nonce is
 * per response: the stored HTML's nonce is replaced by the new response's.
 */

const MAX_ENTRIES = 100;
const MAX_BYTES = 1024 * 1024;
/** A quarter of the cache budget (CACHE_MB, sized to the machine: decision 040). */
const maxTotalBytes = () => processCacheSizes().renderMemoBytes;

/** The HTML split at its nonce attributes' values, as bytes (ready to send). */
type Entry = { parts: Buffer<ArrayBuffer>[]; bytes: number };

/** Least recently used out first, past MAX_ENTRIES or its share of the budget. */
type Memo = { entries: Lru<string, Entry> };

declare module '~/platform/process-state.server' {
  interface ProcessStateRegistry {
    renderMemo: Memo;
  }
}

const memo = processSingleton('renderMemo', (): Memo => ({
  entries: new Lru({ maxEntries: MAX_ENTRIES, maxSize: maxTotalBytes, sizeOf: (e) => e.bytes }),
}));
const entries = memo.entries;

class NotHashable extends Error {}

function hashReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Promise) throw new NotHashable('deferred data');
  if (value instanceof Map) return { $map: Array.from(value.entries()) };
  if (value instanceof Set) return { $set: Array.from(value.values()) };
  if (typeof value === 'bigint') return `${value.toString()}n`;
  if (value === undefined) return { $undefined: true };
  return value;
}

/** The memo key of this render, or null when it must not be memoised. */
export function renderCacheKey(
  request: Request,
  statusCode: number,
  responseHeaders: Headers,
  context: EntryContext,
): string | null {
  if (request.method.toUpperCase() !== 'GET' || statusCode !== 200) return null;
  if (hasPersonalCookie(request) || responseHeaders.has('Set-Cookie')) return null;
  const handler = context.staticHandlerContext;
  if (handler.errors || handler.actionData) return null;
  const url = new URL(request.url);
  try {
    const material = JSON.stringify(
      [url.pathname, url.search, context.manifest.version, siteToday(), handler.loaderData],
      hashReplacer,
    );
    return crypto.createHash('sha256').update(material).digest('base64url');
  } catch {
    return null;
  }
}

/**
 * The memoised HTML for a key, with `nonce` in place of the one it was rendered with, as bytes
 * (a Buffer body is sent as is; a string body would be re-encoded on every response).
 */
export function cachedRender(key: string, nonce: string): Buffer<ArrayBuffer> | null {
  // Now the most recently used.
  const entry = entries.get(key);
  if (!entry) return null;
  if (entry.parts.length === 1) return entry.parts[0]!;
  const value = Buffer.from(nonce);
  const pieces: Buffer<ArrayBuffer>[] = [];
  entry.parts.forEach((part, i) => {
    if (i > 0) pieces.push(value);
    pieces.push(part);
  });
  return Buffer.concat(pieces);
}

/**
 * A pass-through stream for the render's HTML that memoises it under `key` once the render has
 * completed. Call `discard()` from the render's `onError`: a failed or aborted render is never
 * stored.
 */
export function recordRender(
  key: string,
  nonce: string,
): { stream: Transform; discard: () => void } {
  const chunks: Buffer[] = [];
  let size = 0;
  let discarded = false;
  const stream = new Transform({
    transform(chunk: Buffer | string, _encoding, callback) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size <= MAX_BYTES && !discarded) chunks.push(buffer);
      callback(null, buffer);
    },
    flush(callback) {
      if (size <= MAX_BYTES && !discarded)
        storeRender(key, Buffer.concat(chunks).toString('utf8'), nonce);
      callback();
    },
  });
  return {
    stream,
    discard: () => {
      discarded = true;
      chunks.length = 0;
    },
  };
}

export function storeRender(key: string, html: string, nonce: string): void {
  if (!html.includes('</html>')) return;
  const marker = `nonce="${nonce}"`;
  const parts = nonce
    ? html
        .split(marker)
        .map((part, i, all) =>
          Buffer.from(`${i > 0 ? '"' : ''}${part}${i < all.length - 1 ? 'nonce="' : ''}`),
        )
    : [Buffer.from(html)];
  const bytes = parts.reduce((sum, part) => sum + part.length, 0);
  entries.set(key, { parts, bytes });
}

export function clearRenderCache(): void {
  entries.clear();
}

export const renderMemoStats = () => ({ entries: entries.size, bytes: entries.totalSize });
