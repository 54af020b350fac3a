import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type * as LoggerModule from './logger.server';
import type * as TrustModule from './trust-boundary.server';

/**
 * The trust boundary's rules (allowed hosts, same origin), then `guardRequest` in a bare
 * Node HTTP server, as our server module mounts it: what it answers and what it lets through.
 */

let t: typeof TrustModule;
let log: typeof LoggerModule;
let server: http.Server;
let port = 0;

beforeAll(async () => {
  process.env.LOG_LEVEL = 'silent';
  process.env.SITE_URL = 'https://nightshore.example';
  process.env.ALLOWED_HOSTS = 'www.nightshore.example,.nightshore.test';
  t = await import('./trust-boundary.server');
  log = await import('./logger.server');
  server = http.createServer((req, res) => {
    t.guardRequest(req, res, () =>
      res.end(
        `reached the route${req.headers['x-forwarded-host'] ? ' with X-Forwarded-Host' : ''}`,
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const config = {
  siteUrl: 'https://nightshore.example',
  allowedHosts: ['www.nightshore.example', '.nightshore.test'],
};

describe('hostnameOf', () => {
  it.each([
    ['example.com', 'example.com'],
    ['Example.COM:8080', 'example.com'],
    ['localhost:3000', 'localhost'],
    ['[::1]:3000', '[::1]'],
    ['127.0.0.1', '127.0.0.1'],
  ])('%s is %s', (header, hostname) => {
    expect(t.hostnameOf(header)).toBe(hostname);
  });

  it.each(['', 'bad host', 'evil.example/path', 'user@evil.example', 'a?b', 'x'.repeat(300)])(
    'refuses %j',
    (header) => {
      expect(t.hostnameOf(header)).toBeNull();
    },
  );
});

describe('isAllowedHostname', () => {
  it.each(['nightshore.example', 'www.nightshore.example', 'localhost', '127.0.0.1', '[::1]'])(
    'answers for %s',
    (hostname) => {
      expect(t.isAllowedHostname(hostname, config)).toBe(true);
    },
  );

  it('answers for a listed domain and its subdomains (leading dot)', () => {
    expect(t.isAllowedHostname('nightshore.test', config)).toBe(true);
    expect(t.isAllowedHostname('eu.nightshore.test', config)).toBe(true);
    expect(t.isAllowedHostname('evilnightshore.test', config)).toBe(false);
  });

  it.each(['evil.example', 'nightshore.example.evil.example', 'shop.nightshore.example'])(
    'refuses %s',
    (hostname) => {
      expect(t.isAllowedHostname(hostname, config)).toBe(false);
    },
  );

  it('without SITE_URL or ALLOWED_HOSTS, only the loopback names', () => {
    const bare = { siteUrl: '', allowedHosts: [] };
    expect(t.isAllowedHostname('localhost', bare)).toBe(true);
    expect(t.isAllowedHostname('nightshore.example', bare)).toBe(false);
  });
});

describe('isSameOrigin', () => {
  const host = 'nightshore.example';
  it('passes an Origin naming the addressed host, whatever the scheme (TLS at a proxy)', () => {
    expect(t.isSameOrigin({ origin: 'https://nightshore.example' }, host)).toBe(true);
    expect(t.isSameOrigin({ origin: 'http://localhost:3000' }, 'localhost:3000')).toBe(true);
  });

  it('refuses another site, a sibling, another port of the same name, null and junk', () => {
    for (const [origin, addressed] of [
      ['https://evil.example', host],
      ['https://www.nightshore.example', host],
      ['https://nightshore.example.evil.example', host],
      ['http://localhost:4000', 'localhost:3000'],
      ['null', host],
      ['not a url', host],
      ['file:///etc/passwd', host],
    ] as const) {
      expect(t.isSameOrigin({ origin }, addressed), origin).toBe(false);
    }
  });

  it('without Origin, Sec-Fetch-Site decides; a client that sends neither passes', () => {
    expect(t.isSameOrigin({ secFetchSite: 'cross-site' }, host)).toBe(false);
    expect(t.isSameOrigin({ secFetchSite: 'same-site' }, host)).toBe(false);
    expect(t.isSameOrigin({ secFetchSite: 'same-origin' }, host)).toBe(true);
    expect(t.isSameOrigin({ secFetchSite: 'none' }, host)).toBe(true);
    expect(t.isSameOrigin({}, host)).toBe(true);
  });
});

function send(
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? '', body }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('guardRequest', () => {
  it('refuses an unknown Host with 400: JSON under /api, plain text elsewhere', async () => {
    const api = await send('GET', '/api/tracks', { Host: 'evil.example' });
    expect(api.status).toBe(400);
    expect(api.type).toMatch(/^application\/json/);
    expect(JSON.parse(api.body)).toEqual({ error: 'Bad Request: unknown host' });
    const page = await send('POST', '/auth', { Host: 'evil.example:3000' });
    expect(page.status).toBe(400);
    expect(page.type).toMatch(/^text\/plain/);
    expect(page.body.trim()).toBe('Bad Request: unknown host');
  });

  it('answers /healthz whatever the Host (load balancers probe by address)', async () => {
    expect((await send('GET', '/healthz', { Host: '10.0.0.7:3000' })).body).toBe(
      'reached the route',
    );
  });

  it('lets the allowed hosts through', async () => {
    for (const host of [
      'nightshore.example',
      'localhost:3000',
      '[::1]:3000',
      'a.nightshore.test',
    ]) {
      expect((await send('GET', '/', { Host: host })).status, host).toBe(200);
    }
  });

  it('refuses a state change from another site with 403, whatever the method', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const api = await send(method, '/api/subscribe', {
        Host: 'nightshore.example',
        Origin: 'https://evil.example',
      });
      expect(api.status, method).toBe(403);
      expect(JSON.parse(api.body)).toEqual({ error: 'Cross-origin request refused' });
      const page = await send(method, '/account/delete', {
        Host: 'nightshore.example',
        'Sec-Fetch-Site': 'cross-site',
      });
      expect(page.status, method).toBe(403);
      expect(page.body.trim()).toBe('Cross-origin request refused');
    }
  });

  it('lets reads, same-origin posts and header-less clients through', async () => {
    const host = 'nightshore.example';
    expect((await send('GET', '/', { Host: host, Origin: 'https://evil.example' })).status).toBe(
      200,
    );
    expect(
      (await send('POST', '/auth', { Host: host, Origin: 'https://nightshore.example' })).status,
    ).toBe(200);
    expect(
      (await send('POST', '/auth', { Host: host, 'Sec-Fetch-Site': 'same-origin' })).status,
    ).toBe(200);
    expect((await send('POST', '/api/contact', { Host: host })).status).toBe(200);
  });

  it('lets Origin: null through for POST /api/plays only, the embed beacon (decision 038)', async () => {
    const host = 'nightshore.example';
    const nullOrigin = { Host: host, Origin: 'null', 'Sec-Fetch-Site': 'cross-site' };
    expect((await send('POST', '/api/plays', nullOrigin)).status).toBe(200);
    for (const [method, path] of [
      ['PUT', '/api/plays'],
      ['DELETE', '/api/plays'],
      ['POST', '/api/plays/'],
      ['POST', '/api/plays.data'],
      ['POST', '/api/subscribe'],
      ['POST', '/api/favorites/1'],
      ['POST', '/auth'],
      ['POST', '/account/delete'],
      ['POST', '/admin/tracks/new'],
    ]) {
      expect((await send(method!, path!, nullOrigin)).status, `${method} ${path}`).toBe(403);
    }
    // Another origin stays refused on the beacon too.
    expect(
      (await send('POST', '/api/plays', { Host: host, Origin: 'https://evil.example' })).status,
    ).toBe(403);
  });
});

describe('X-Forwarded-Host without TRUST_PROXY', () => {
  it('is dropped: neither the check nor Remix reads a client’s own', async () => {
    const res = await send('POST', '/auth', {
      Host: 'nightshore.example',
      'X-Forwarded-Host': 'evil.example',
      Origin: 'https://nightshore.example',
    });
    expect(res.status).toBe(200);
    expect(res.body).toBe('reached the route');
  });
});

describe('loggablePath', () => {
  it('writes [token] in place of link tokens and drops the query string', () => {
    expect(log.loggablePath('/unsubscribe/12.abcDEF_-?x=1')).toBe('/unsubscribe/[token]');
    expect(log.loggablePath('/newsletter/confirm/12.abc.data')).toBe('/newsletter/confirm/[token]');
    expect(log.loggablePath('/account/verify-email/abc_DEF-123')).toBe(
      '/account/verify-email/[token]',
    );
    expect(log.loggablePath('/blog/a-post?utm=1')).toBe('/blog/a-post');
  });
});
