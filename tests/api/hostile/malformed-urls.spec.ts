import { expect, test } from '@playwright/test';

import { raw } from '../raw-http';

/**
 * Malformed URLs and requests that make no usable URL (a bad %-escape, a Host that is no
 * host): the site's own answer, JSON `{ error }` under /api and plain text on pages, never
 * Express's HTML page. Sent with `raw()` (tests/api/raw-http.ts); no role needed.
 */

test('malformed URLs and unusable requests: JSON { error } under /api, plain text on pages', async () => {
  // Each used to get Express's own HTML page (400 for a malformed %-escape, 500 for a Host
  // that makes no URL) instead of the site's answer.
  const cases: { method: string; path: string; host?: string }[] = [
    { method: 'GET', path: '/api/blog/%E0%A4%A' },
    { method: 'GET', path: '/api/%E0%A4%A' },
    { method: 'PUT', path: '/api/admin/shows/%E0%A4%A' },
    { method: 'DELETE', path: '/api/admin/tracks/%C0%AF' },
    { method: 'GET', path: '/api/tracks', host: 'bad host' },
    { method: 'GET', path: '/blog/%E0%A4%A' },
    { method: 'GET', path: '/uploads/audio/%E0%A4%A' },
    { method: 'GET', path: '/build/%E0%A4%A.js' },
    { method: 'GET', path: '/music', host: 'bad host' },
  ];
  for (const c of cases) {
    const label = `${c.method} ${c.path}${c.host ? ` (Host: ${c.host})` : ''}`;
    const res = await raw(c.method, c.path, c.host ? { Host: c.host } : {}, []);
    expect.soft(res.status, label).toBe(400);
    expect
      .soft(res.body, `${label}: no stack trace`)
      .not.toMatch(/at .+\(.+:\d+:\d+\)|node_modules/);
    expect.soft(res.body, `${label}: not Express's page`).not.toMatch(/<pre>|<!DOCTYPE/i);
    expect.soft(res.headers['x-request-id'], `${label}: a request id`).toMatch(/^[\w-]{8,}$/);
    expect.soft(res.headers['x-content-type-options'], `${label}: base headers`).toBe('nosniff');
    // A Host that is no host at all is refused by the trust boundary before anything else.
    const message = c.host ? 'Bad Request: unknown host' : 'Bad Request';
    if (c.path.startsWith('/api/')) {
      expect.soft(res.headers['content-type'], label).toMatch(/^application\/json/);
      expect.soft(JSON.parse(res.body) as unknown, label).toEqual({ error: message });
    } else {
      expect.soft(res.headers['content-type'], label).toMatch(/^text\/plain/);
      expect.soft(res.body.trim(), label).toBe(message);
    }
  }
});
