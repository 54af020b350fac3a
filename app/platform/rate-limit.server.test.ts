import { type EmbeddedMongo, startEmbeddedMongo } from '@night-shore/embedded-mongo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type * as ApiModule from '~/api/api.server';

import type * as DbModule from './db.server';
import type * as RateLimitModule from './rate-limit.server';

type Modules = {
  rl: typeof RateLimitModule;
  api: typeof ApiModule;
  db: typeof DbModule;
};

let store: EmbeddedMongo;
let m: Modules;

beforeAll(async () => {
  process.env.SEED = 'false';
  store = await startEmbeddedMongo();
  const db = await import('./db.server');
  await db.connectDb({ uri: store.uri, dbName: 'rate-limit-test' });
  m = { rl: await import('./rate-limit.server'), api: await import('../api/api.server'), db };
  m.rl.configureRateLimits({
    'login-ip': { points: 6, durationSeconds: 60 },
    'login-user': { points: 3, durationSeconds: 60 },
    contact: { points: 2, durationSeconds: 120 },
    register: { points: 2, durationSeconds: 60 },
    subscribe: { points: 2, durationSeconds: 60 },
  });
});

afterAll(async () => {
  await m.db.disconnectDb();
  await store.stop();
});

const from = (ip: string) =>
  new Request('http://localhost/contact', {
    method: 'POST',
    headers: { 'x-night-shore-client-ip': ip },
  });

describe('rate limits on the embedded store', () => {
  it('allows the configured number of attempts per address, then refuses with a retry time', async () => {
    const a = from('10.0.0.1');
    expect((await m.rl.consumeRateLimit('contact', a)).ok).toBe(true);
    expect((await m.rl.consumeRateLimit('contact', a)).ok).toBe(true);
    const third = await m.rl.consumeRateLimit('contact', a);
    expect(third.ok).toBe(false);
    if (third.ok) return;
    expect(third.retryAfterSeconds).toBeGreaterThan(60);
    expect(third.retryAfterSeconds).toBeLessThanOrEqual(120);
    expect(third.message).toBe('Too many attempts. Please try again in 2 minutes.');
    expect(m.rl.retryAfterHeaders(third)).toEqual({
      'Retry-After': String(third.retryAfterSeconds),
    });
    // Another address has its own bucket; another kind too.
    expect((await m.rl.consumeRateLimit('contact', from('10.0.0.2'))).ok).toBe(true);
    expect((await m.rl.consumeRateLimit('subscribe', a)).ok).toBe(true);
  });

  it('counts login attempts per address + username, reset by a successful login', async () => {
    const r = from('10.0.0.9');
    for (let i = 0; i < 3; i++)
      expect((await m.rl.consumeRateLimit('login', r, { username: 'Alice' })).ok).toBe(true);
    // Same name, other case: same counter.
    expect((await m.rl.consumeRateLimit('login', r, { username: 'alice' })).ok).toBe(false);
    // Another username from the same address still gets through (until the per-address cap).
    expect((await m.rl.consumeRateLimit('login', r, { username: 'bob' })).ok).toBe(true);
    await m.rl.resetLoginLimit(r, 'alice');
    expect((await m.rl.consumeRateLimit('login', r, { username: 'alice' })).ok).toBe(true);
    // The per-address cap (6) is reached now: every name is refused.
    const capped = await m.rl.consumeRateLimit('login', r, { username: 'carol' });
    expect(capped.ok).toBe(false);
  });

  it('stores its counters in the database (they hold across instances)', async () => {
    const docs = await m.db
      .connectDb()
      .then((mg) => mg.connection.collection(m.rl.RATE_LIMIT_COLLECTION).find({}).toArray());
    expect(docs.length).toBeGreaterThan(0);
    expect(docs.some((d) => String(d.key).startsWith('rl:contact:10.0.0.1'))).toBe(true);
  });

  it("the API's enforceRateLimit throws a JSON 429 with Retry-After", async () => {
    const r = from('10.0.0.50');
    await m.api.enforceRateLimit('register', r);
    await m.api.enforceRateLimit('register', r);
    const thrown = await m.api.enforceRateLimit('register', r).then(
      () => null,
      (e: unknown) => e,
    );
    expect(thrown).toBeInstanceOf(Response);
    const res = thrown as Response;
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await res.json()).toEqual({
      error: expect.stringMatching(/^Too many attempts\. Please try again in \d+ minutes?\.$/),
    });
  });
});

describe('page forms answering 429', () => {
  it('retryAfterFromAction passes the action’s Retry-After on to the page', () => {
    const args = (actionHeaders: HeadersInit) => ({
      actionHeaders: new Headers(actionHeaders),
      loaderHeaders: new Headers(),
      parentHeaders: new Headers(),
      errorHeaders: undefined,
    });
    const headers = new Headers(m.rl.retryAfterFromAction(args({ 'Retry-After': '42' })));
    expect(headers.get('Retry-After')).toBe('42');
    expect([...new Headers(m.rl.retryAfterFromAction(args({})))]).toEqual([]);
  });

  it('every page route whose action can be rate-limited exports it as `headers`', async () => {
    const fs = await import('node:fs/promises');
    const path = await import('node:path');
    const root = path.resolve(__dirname, '../routes');
    const entries = await fs.readdir(root, { recursive: true });
    // Rate limits are consumed in the route, in a public-form helper, or in the accounts service.
    const limited =
      /consumeRateLimit|subscribeAction|contactAction|handleSubscribe|handleContact|services\/accounts\.server/;
    const routes: string[] = [];
    for (const entry of entries) {
      if (!/\.tsx$/.test(entry) || /\.test\.tsx$/.test(entry)) continue;
      const source = await fs.readFile(path.join(root, entry), 'utf8');
      if (!/export (async function|const) action/.test(source) || !limited.test(source)) continue;
      routes.push(entry);
      expect(source, entry).toMatch(/export const headers = retryAfterFromAction;/);
    }
    expect(routes.length).toBeGreaterThanOrEqual(5);
  });
});
