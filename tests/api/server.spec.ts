import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

import { expect, test } from '@playwright/test';

import { startServer, type TestServer } from '../security/server';

/**
 * The server module (server/index.ts) on a server of its own with LOG_LEVEL=info: every
 * answer (page, single-fetch data, static file, built asset, /api, errors) carries the
 * request id and the base security headers exactly once, even where the Remix answer sets
 * the same headers itself; stdout holds exactly one JSON line per request, without query
 * strings and without any other request log (no morgan).
 */

type Answer = { status: number; rawHeaders: string[]; headers: http.IncomingHttpHeaders };

function send(
  url: string,
  method: string,
  headers: Record<string, string> = {},
  body?: Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, headers: res.headers }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

const BASE_HEADERS = [
  'x-request-id',
  'x-content-type-options',
  'referrer-policy',
  'x-frame-options',
  'cross-origin-opener-policy',
  'permissions-policy',
  'strict-transport-security',
];

test('no header twice on any kind of answer, and one JSON log line per request', async () => {
  test.setTimeout(120_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-server-'));
  let server: TestServer | null = null;
  try {
    server = await startServer(dir, { LOG_LEVEL: 'info', SEED: 'true' });
    const url = server.url;
    const page = await fetch(`${url}/`);
    const asset = /\/build\/[^"')\s]+\.(?:js|css|woff2)/.exec(await page.text())?.[0];
    expect(asset, 'a built asset on the home page').toBeTruthy();

    const requests: { name: string; method: string; path: string; body?: Buffer }[] = [
      { name: 'page', method: 'GET', path: '/' },
      { name: 'page with a query', method: 'GET', path: '/music?token=secret-query-value' },
      { name: 'page 404', method: 'GET', path: '/no-such-page' },
      { name: 'single-fetch data', method: 'GET', path: '/_root.data' },
      { name: 'static file (public/)', method: 'GET', path: '/favicon.ico' },
      { name: 'built asset', method: 'GET', path: asset! },
      { name: 'resource route', method: 'GET', path: '/robots.txt' },
      { name: '/api answer', method: 'GET', path: '/api/tracks' },
      { name: '/api 404', method: 'GET', path: '/api/does-not-exist' },
      { name: '/api malformed URL', method: 'GET', path: '/api/blog/%E0%A4%A' },
      {
        name: '/api early answer (body over the limit, left unread)',
        method: 'POST',
        path: '/api/contact',
        body: Buffer.alloc(1024 * 1024, 'x'),
      },
    ];
    const ids = new Map<string, string>();
    for (const r of requests) {
      const answer = await send(
        `${url}${r.path}`,
        r.method,
        {
          'X-Request-Id': 'forged-by-the-client',
          Origin: url,
          ...(r.body ? { 'Content-Type': 'application/json' } : {}),
        },
        r.body,
      );
      const names = answer.rawHeaders
        .filter((_, i) => i % 2 === 0)
        .map((n) => n.toLowerCase())
        .filter((n) => n !== 'set-cookie');
      const twice = names.filter((n, i) => names.indexOf(n) !== i);
      expect.soft(twice, `${r.name}: headers sent twice`).toEqual([]);
      for (const name of BASE_HEADERS)
        expect.soft(answer.headers[name], `${r.name}: ${name}`).toBeTruthy();
      const id = String(answer.headers['x-request-id']);
      expect.soft(id, `${r.name}: a fresh request id`).toMatch(/^[\w-]{8,}$/);
      expect.soft(id).not.toBe('forged-by-the-client');
      if (r.body) expect.soft(answer.status, r.name).toBe(413);
      ids.set(id, r.path);
    }

    // The log lines are written as the answers finish: wait until every request has one.
    const running = server;
    await expect
      .poll(() => [...ids.keys()].filter((id) => !running.stdout().includes(`"requestId":"${id}"`)))
      .toEqual([]);
    const lines = server
      .stdout()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const [id, requestPath] of ids) {
      const mine = logged.filter((l) => l.requestId === id);
      expect.soft(mine.length, `one log line for ${requestPath}`).toBe(1);
      expect
        .soft(Object.keys(mine[0] ?? {}).sort())
        .toEqual(['level', 'method', 'ms', 'msg', 'path', 'requestId', 'status', 'time'].sort());
      expect.soft(mine[0]?.path).toBe(requestPath.split('?')[0]);
    }
    // Every request line is JSON, once per id (the health checks of startServer included).
    const requestIds = logged.filter((l) => l.msg === 'request').map((l) => l.requestId);
    expect(new Set(requestIds).size).toBe(requestIds.length);
    expect(server.stdout()).not.toMatch(/^(GET|POST|HEAD|PUT|DELETE) \S+ \d{3}/m);
    expect(server.stdout()).not.toContain('secret-query-value');
  } finally {
    if (server) {
      server.proc.kill('SIGKILL');
      await server.exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('an idle keep-alive connection is kept past Node’s 5 s, and the header says for how long', async ({
  baseURL,
}) => {
  // A client that sends on a connection the server is closing gets a reset, not an answer:
  // with Node's 5 s default, a busy machine made that common (server/http-server.ts).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = () =>
    new Promise<{ status: number; keepAlive: string; reused: boolean }>((resolve, reject) => {
      const req = http.get(`${baseURL}/healthz`, { agent }, (res) => {
        res.resume();
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            keepAlive: String(res.headers['keep-alive']),
            reused: req.reusedSocket,
          }),
        );
      });
      req.on('error', reject);
    });
  try {
    const first = await get();
    expect(first.status).toBe(200);
    expect(first.keepAlive).toBe('timeout=65');
    await new Promise((r) => setTimeout(r, 6_000));
    const second = await get();
    expect(second.status).toBe(200);
    expect(second.reused, 'the same connection, still open after 6 s idle').toBe(true);
  } finally {
    agent.destroy();
  }
});
