import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import type { EntryContext } from '@remix-run/node';
import { describe, expect, it } from 'vitest';

import { processCacheSizes } from '~/platform/memory.server';

import {
  cachedRender,
  clearRenderCache,
  recordRender,
  renderCacheKey,
  renderMemoStats,
  storeRender,
} from './render-memo.server';

function context(
  loaderData: Record<string, unknown>,
  extra: Partial<EntryContext['staticHandlerContext']> = {},
) {
  return {
    manifest: { version: 'v1' },
    staticHandlerContext: { loaderData, actionData: null, errors: null, ...extra },
  } as unknown as EntryContext;
}

const get = (url: string, headers: Record<string, string> = {}) =>
  new Request(`http://localhost${url}`, { headers });

describe('render cache key', () => {
  it('changes with the loader data (an admin change) and the URL', () => {
    const a = renderCacheKey(get('/'), 200, new Headers(), context({ root: { title: 'A' } }));
    const same = renderCacheKey(get('/'), 200, new Headers(), context({ root: { title: 'A' } }));
    const changed = renderCacheKey(get('/'), 200, new Headers(), context({ root: { title: 'B' } }));
    const otherUrl = renderCacheKey(
      get('/?q=x'),
      200,
      new Headers(),
      context({ root: { title: 'A' } }),
    );
    expect(a).not.toBeNull();
    expect(same).toBe(a);
    expect(changed).not.toBe(a);
    expect(otherUrl).not.toBe(a);
    const withMap = (m: Map<string, number>) =>
      renderCacheKey(get('/'), 200, new Headers(), context({ root: { m } }));
    expect(withMap(new Map([['a', 1]]))).not.toBe(withMap(new Map([['a', 2]])));
  });

  it('is null for personal, failed, non-GET or deferred renders', () => {
    const data = context({ root: {} });
    expect(
      renderCacheKey(get('/', { Cookie: '__session=x' }), 200, new Headers(), data),
    ).toBeNull();
    expect(renderCacheKey(get('/', { Cookie: '__toast=x' }), 200, new Headers(), data)).toBeNull();
    expect(renderCacheKey(get('/'), 404, new Headers(), data)).toBeNull();
    expect(renderCacheKey(get('/'), 200, new Headers({ 'Set-Cookie': 'a=b' }), data)).toBeNull();
    expect(
      renderCacheKey(
        new Request('http://localhost/', { method: 'POST' }),
        200,
        new Headers(),
        data,
      ),
    ).toBeNull();
    expect(
      renderCacheKey(get('/'), 200, new Headers(), context({ root: { p: Promise.resolve(1) } })),
    ).toBeNull();
    expect(
      renderCacheKey(
        get('/'),
        200,
        new Headers(),
        context({ root: {} }, { errors: { root: new Error('x') } }),
      ),
    ).toBeNull();
    expect(
      renderCacheKey(get('/', { Cookie: 'theme=dark' }), 200, new Headers(), data),
    ).not.toBeNull();
  });
});

describe('recorded renders', () => {
  const html =
    '<!DOCTYPE html><html><body><script nonce="OLD">1</script><p>é</p><script nonce="OLD">2</script></body></html>';

  it('are stored once complete and served with the new response nonce', async () => {
    clearRenderCache();
    const { stream } = recordRender('k1', 'OLD');
    const out: Buffer[] = [];
    stream.on('data', (c: Buffer) => out.push(c));
    await pipeline(
      Readable.from([Buffer.from(html.slice(0, 20)), Buffer.from(html.slice(20))]),
      stream,
    );
    expect(Buffer.concat(out).toString()).toBe(html);
    expect(cachedRender('k1', 'NEW')?.toString()).toBe(
      html.replaceAll('nonce="OLD"', 'nonce="NEW"'),
    );
    expect(cachedRender('k1', 'OLD')?.toString()).toBe(html);
    expect(cachedRender('missing', 'NEW')).toBeNull();
  });

  it('are never stored when the render failed', async () => {
    clearRenderCache();
    const { stream, discard } = recordRender('k2', 'OLD');
    stream.resume();
    discard();
    await pipeline(Readable.from([Buffer.from(html)]), stream);
    expect(cachedRender('k2', 'NEW')).toBeNull();
  });

  it('hold at most their share of the cache budget, least recently used out first', () => {
    clearRenderCache();
    const budget = processCacheSizes().renderMemoBytes;
    // Pages of a little more than 1/10 of the budget: the memo keeps the nine last used.
    const page = (n: number) =>
      `<html><body>${String(n).padEnd(Math.floor(budget / 10), '.')}</body></html>`;
    for (let n = 0; n < 20; n++) {
      storeRender(`page${n}`, page(n), '');
      // Read while it is the second oldest: it outlives the pages stored after it.
      if (n === 15) expect(cachedRender('page8', '')).not.toBeNull();
    }
    expect(renderMemoStats()).toEqual({ entries: 9, bytes: expect.any(Number) });
    expect(renderMemoStats().bytes).toBeLessThanOrEqual(budget);
    expect(cachedRender('page19', '')?.toString()).toBe(page(19));
    expect(cachedRender('page8', '')).not.toBeNull();
    for (const gone of [0, 7, 9, 11]) expect(cachedRender(`page${gone}`, '')).toBeNull();
    expect(cachedRender('page12', '')).not.toBeNull();
  });
});
