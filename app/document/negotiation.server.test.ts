import { describe, expect, it } from 'vitest';

import { versionRead } from '../../tests/helpers/data-version';
import { harness, pageResponse } from '../../tests/helpers/page-cache-harness';
import { setupTestDatabase } from '../../tests/helpers/test-db';

/**
 * Content negotiation (decision 054): who is an ActivityPub client, which pages have an
 * ActivityPub twin, and the page cache never handing the one answer to the other.
 */

setupTestDatabase();

const negotiation = await import('./negotiation.server');
const cache = await import('./page-cache.server');

const MASTODON = 'application/activity+json, application/ld+json';
const LD_PROFILE = 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"';
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('wantsActivityStreams', () => {
  it.each([
    [MASTODON, true],
    [LD_PROFILE, true],
    ['application/activity+json', true],
    ['application/ld+json', true],
    ['application/json, application/activity+json;q=0.9', true],
    [BROWSER, false],
    ['text/html, application/activity+json', false],
    ['*/*', false],
    ['application/json', false],
    ['application/activity+json;q=0', false],
    ['', false],
    [null, false],
    [undefined, false],
    [',;;,q=', false],
  ])('%j → %s', (accept, expected) => {
    expect(negotiation.wantsActivityStreams(accept)).toBe(expected);
  });
});

describe('the pages with an ActivityPub twin', () => {
  it.each([
    ['/music/12', true],
    ['/blog/summer-tour', true],
    ['/shows/7', true],
    ['/music', false],
    ['/music/12/share', false],
    ['/music/abc', false],
    ['/shows', false],
    ['/blog', false],
  ])('%s → %s', (path, expected) => {
    expect(negotiation.isNegotiatedPath(path)).toBe(expected);
  });

  it('add Accept to Vary once', () => {
    expect(negotiation.varyWithAccept(null)).toBe('Accept');
    expect(negotiation.varyWithAccept('Cookie')).toBe('Cookie, Accept');
    expect(negotiation.varyWithAccept('Cookie, accept')).toBe('Cookie, accept');
  });
});

/** The routes as if an ActivityPub request reached them: JSON for it, the page otherwise. */
const negotiating = async (path: string, headers: { accept?: string }) => {
  if (negotiation.wantsActivityStreams(headers.accept)) {
    return new Response(JSON.stringify({ type: 'Note', id: path }), {
      headers: {
        'Content-Type': 'application/activity+json',
        'Cache-Control': 'public, max-age=0, s-maxage=30',
        Vary: 'Accept',
      },
    });
  }
  const page = pageResponse(`page of ${path}`);
  page.headers.set('Vary', 'Cookie, Accept');
  return page;
};

describe('the page cache and ActivityPub requests', () => {
  it('an anonymous hit after an ActivityPub request still serves HTML', async () => {
    await versionRead();
    const h = harness(cache, negotiating);
    const first = await h.get('/music/401', { accept: BROWSER });
    expect(first).toMatchObject({ rendered: true });
    expect(first.headers['vary']).toBe('Cookie, Accept');
    expect((await h.get('/music/401', { accept: BROWSER })).rendered).toBe(false);
    const as2 = await h.get('/music/401', { accept: LD_PROFILE });
    expect(as2.rendered).toBe(true);
    expect(as2.headers['content-type']).toBe('application/activity+json');
    const again = await h.get('/music/401', { accept: BROWSER });
    expect(again.rendered).toBe(false);
    expect(again.headers['content-type']).toContain('text/html');
    expect(again.body).toContain('page of /music/401');
  });

  it('and the other way round: an ActivityPub request after a cached page gets the object', async () => {
    await versionRead();
    const h = harness(cache, negotiating);
    expect((await h.get('/music/402', { accept: MASTODON })).headers['content-type']).toBe(
      'application/activity+json',
    );
    // The ActivityPub answer was not kept: the page renders, then is a hit.
    expect((await h.get('/music/402', { accept: BROWSER })).rendered).toBe(true);
    const hit = await h.get('/music/402', {});
    expect(hit.rendered).toBe(false);
    expect(hit.headers['content-type']).toContain('text/html');
    const as2 = await h.get('/music/402', { accept: MASTODON });
    expect(as2.rendered).toBe(true);
    expect(JSON.parse(as2.body)).toEqual({ type: 'Note', id: '/music/402' });
  });
});
