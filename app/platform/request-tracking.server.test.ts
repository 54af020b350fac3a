import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type * as RequestTrackingModule from './request-tracking.server';

/**
 * `trackRequest` and `answerError` in a bare Node HTTP server (the middleware contract
 * Express uses: `(req, res, next)`), without the build: ids, client address, base headers,
 * the in-flight count and the body left unread by an early answer.
 */

let t: typeof RequestTrackingModule;
let server: http.Server;
let base = '';
const seen: { id?: string; ip?: string }[] = [];

beforeAll(async () => {
  process.env.LOG_LEVEL = 'silent';
  t = await import('./request-tracking.server');
  server = http.createServer((req, res) => {
    t.trackRequest(req, res, (error?: unknown) => {
      if (error) return t.answerError(error, req, res, () => undefined);
      seen.push({
        id: String(req.headers[t.REQUEST_ID_HEADER]),
        ip: String(req.headers[t.CLIENT_IP_HEADER]),
      });
      if (req.url === '/early') {
        // A body reader that stopped pulling (as Remix's stream does once its queue is
        // full), then an answer before the body was read, as a 413 does.
        req.on('data', () => req.pause());
        res.statusCode = 413;
        res.end('too large');
      } else if (req.url === '/slow') {
        setTimeout(() => res.end('done'), 200);
      } else if (req.url === '/api/fail' || req.url === '/fail') {
        t.answerError(new Error('boom'), req, res, () => undefined);
      } else if (req.url === '/api/bad') {
        t.answerError(Object.assign(new Error('bad'), { status: 400 }), req, res, () => undefined);
      } else {
        res.setHeader('X-Frame-Options', 'SAMEORIGIN');
        res.end('ok');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('trackRequest', () => {
  it('overwrites the client’s request id and address, and sets the base headers once', async () => {
    const res = await fetch(`${base}/`, {
      headers: { 'X-Request-Id': 'forged', 'X-Night-Shore-Client-Ip': '203.0.113.7' },
    });
    const last = seen.at(-1)!;
    expect(last.id).not.toBe('forged');
    expect(res.headers.get('x-request-id')).toBe(last.id);
    expect(last.ip).toBe('127.0.0.1');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    // A handler's own value replaces the base one (setHeader), it is not added to it.
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });

  it('counts requests in flight and lets waitForIdle resolve when they are done', async () => {
    const pending = fetch(`${base}/slow`);
    await new Promise((r) => setTimeout(r, 50));
    expect(t.requestsInFlight()).toBe(1);
    expect(await t.waitForIdle(5_000)).toBe(true);
    expect(await (await pending).text()).toBe('done');
    expect(t.requestsInFlight()).toBe(0);
  });

  it('reads and drops the body an early answer left unread, so the client can finish', async () => {
    const answer = await new Promise<{ status: number; body: string; sent: boolean }>(
      (resolve, reject) => {
        let got: { status: number; body: string } | null = null;
        let sent = false;
        const done = () => got && sent && resolve({ ...got, sent });
        const timer = setTimeout(
          () => resolve({ ...(got ?? { status: 0, body: '' }), sent }),
          5_000,
        );
        const req = http.request(`${base}/early`, { method: 'POST' }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => {
            got = { status: res.statusCode ?? 0, body };
            done();
          });
        });
        req.on('error', reject);
        req.on('finish', () => {
          sent = true;
          clearTimeout(timer);
          done();
        });
        // 4 MB in 64 KB chunks: far more than the socket buffers hold unread.
        const chunk = Buffer.alloc(64 * 1024, 'x');
        for (let i = 0; i < 64; i++) req.write(chunk);
        req.end();
      },
    );
    expect(answer).toEqual({ status: 413, body: 'too large', sent: true });
  });
});

describe('answerError', () => {
  it('answers JSON under /api and plain text elsewhere, without details', async () => {
    const api = await fetch(`${base}/api/fail`);
    expect(api.status).toBe(500);
    expect(api.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await api.json()).toEqual({ error: 'Something went wrong' });

    const bad = await fetch(`${base}/api/bad`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'Bad Request' });

    const page = await fetch(`${base}/fail`);
    expect(page.status).toBe(500);
    expect(page.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await page.text();
    expect(text).toContain(`Error reference: ${page.headers.get('x-request-id')}`);
    expect(text).not.toContain('boom');
  });
});

describe('clientAddress', () => {
  it('logs 5xx answers as failures, but a 501 (a format the site does not offer) as a 4xx', () => {
    expect([500, 502, 503, 504].every(t.isFailure)).toBe(true);
    expect([200, 304, 400, 404, 429, 501].some(t.isFailure)).toBe(false);
  });

  it('takes the socket address, or the last X-Forwarded-For hop behind a trusted proxy', () => {
    expect(t.clientAddress('::ffff:10.0.0.2', '198.51.100.1', false)).toBe('10.0.0.2');
    expect(t.clientAddress('10.0.0.2', '198.51.100.1, 203.0.113.5', true)).toBe('203.0.113.5');
    expect(t.clientAddress(undefined, undefined, true)).toBe('unknown');
  });
});
