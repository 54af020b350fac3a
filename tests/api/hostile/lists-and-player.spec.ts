import { type APIRequestContext, expect, test } from '@playwright/test';

import { disposeRoles, type Roles, roles, SAME_ORIGIN } from '../helpers';
import { type Case, type Count, req, type Role, runGroup } from './support';

/**
 * Hostile input to the endpoints of issue 37 (see ./support.ts): `limit` and `cursor` on the six
 * list endpoints (junk, negative, huge, NaN, repeated, forged, altered, another list's cursor),
 * the player's queue (`position`, `track`, `count`) and the play token. Every answer is a 4xx
 * with a JSON message, never a 5xx, and nothing is stored; the endpoints that must answer (a
 * token for any GET, the queue's own windows) are checked to answer as documented.
 */

let r: Roles;
const sent: Count = { cases: 0 };
test.beforeAll(async () => {
  r = await roles();
});
test.afterAll(async () => {
  await disposeRoles(r);
  console.log(`[hostile-input/lists-and-player] ${sent.cases} hostile cases sent`);
  sent.cases = 0;
});

const withQuery = (path: string, query: string) =>
  `${path}${path.includes('?') ? '&' : '?'}${query}`;

/** The cursor of a list's second page (from its `Link`), or null when it has one page. */
async function cursorOf(ctx: APIRequestContext, path: string): Promise<string | null> {
  const res = await ctx.get(withQuery(path, 'limit=1'));
  const link = res.headers()['link'];
  const href = link ? /<([^>]+)>/.exec(link)?.[1] : undefined;
  return href ? new URL(href, 'http://x').searchParams.get('cursor') : null;
}

/** A cursor with one character of its values changed (its signature no longer matches). */
function altered(cursor: string): string {
  const at = Math.min(4, cursor.indexOf('.') - 1);
  return cursor.slice(0, at) + (cursor[at] === 'A' ? 'B' : 'A') + cursor.slice(at + 1);
}

/** Sort values of the lists' shape, base64url JSON, as a client could build them. */
const forged = (values: unknown[]) => Buffer.from(JSON.stringify(values)).toString('base64url');

/**
 * The bad `limit`/`cursor` cases of one list endpoint. `own`: a cursor this list issued;
 * `foreign`: one another list issued (both fall back to junk when a list has a single page).
 */
function listCases(path: string, role: Role, own: string | null, foreign: string | null): Case[] {
  const get = (query: string) => (ctx: APIRequestContext) => ctx.get(withQuery(path, query));
  const cases: [string, string][] = [
    ['limit=abc', 'limit=abc'],
    ['limit negative', 'limit=-5'],
    ['limit zero', 'limit=0'],
    ['limit NaN', 'limit=NaN'],
    ['limit 1.5', 'limit=1.5'],
    ['limit 1e3', 'limit=1e3'],
    ['limit huge', 'limit=99999999999999999999'],
    ['limit empty', 'limit='],
    ['limit with a NUL', 'limit=5%00'],
    ['limit given twice', 'limit=1&limit=2'],
    ['cursor given twice', 'limit=1&cursor=a&cursor=b'],
    ['cursor junk', 'limit=5&cursor=%7B%22%24gt%22%3A0%7D'],
    ['cursor empty', 'cursor='],
    ['cursor of 2 KB', `limit=5&cursor=${'A'.repeat(2048)}`],
    [
      'cursor forged (well-formed values, unsigned)',
      `limit=5&cursor=${forged([{ $d: '2020-01-01T00:00:00.000Z' }, 1])}`,
    ],
    [
      'cursor forged with a made-up signature',
      `limit=5&cursor=${forged([{ $d: '2020-01-01T00:00:00.000Z' }, 1])}.${'A'.repeat(22)}`,
    ],
    ['cursor altered', `limit=5&cursor=${own ? altered(own) : 'altered!'}`],
    ['cursor from another list', `limit=5&cursor=${foreign ?? 'foreign!'}`],
  ];
  return cases.map(([name, query]) => ({ name, role, send: get(query) }));
}

test('hostile input: limit and cursor on the six list endpoints', async () => {
  const lists: { path: string; role: Role }[] = [
    { path: '/api/tracks', role: 'anon' },
    { path: '/api/blog', role: 'anon' },
    { path: '/api/gallery', role: 'anon' },
    { path: '/api/shows', role: 'anon' },
    { path: '/api/admin/subscribers', role: 'admin' },
    { path: '/api/admin/messages', role: 'admin' },
  ];
  const cursors = await Promise.all(lists.map((l) => cursorOf(r[l.role], l.path)));
  // Every list's real cursor works (the cases below are refused for what they are, not for a
  // list that refuses every cursor).
  for (const [i, l] of lists.entries()) {
    if (!cursors[i]) continue;
    const ok = await r[l.role].get(withQuery(l.path, `limit=1&cursor=${cursors[i]}`));
    expect(ok.status(), `${l.path}: its own cursor`).toBe(200);
  }
  await runGroup(
    r,
    sent,
    'lists: limit and cursor',
    lists.map((l, i) => ({
      endpoint: `GET ${l.path}`,
      cases: listCases(
        l.path,
        l.role,
        cursors[i] ?? null,
        cursors.find((c, j) => j !== i && c !== null) ?? null,
      ),
    })),
  );
});

test('hostile input: GET /api/tracks/queue', async () => {
  const q = (query: string) => (ctx: APIRequestContext) => ctx.get(`/api/tracks/queue?${query}`);
  const cases: [string, string][] = [
    ['neither position nor track', ''],
    ['both position and track', 'position=0&track=1'],
    ['position negative', 'position=-1'],
    ['position NaN', 'position=NaN'],
    ['position 1.5', 'position=1.5'],
    ['position 1e3', 'position=1e3'],
    ['position huge', 'position=99999999999999'],
    ['position empty', 'position='],
    ['position as an operator', 'position[$gt]=0'],
    ['position given twice', 'position=1&position=2'],
    ['position start and a number', 'position=start&position=3'],
    ['track zero', 'track=0'],
    ['track negative', 'track=-4'],
    ['track junk', 'track=%7B%22%24ne%22%3A1%7D'],
    ['track past a safe integer', 'track=99999999999999999999'],
    ['count zero', 'position=0&count=0'],
    ['count negative', 'position=0&count=-20'],
    ['count junk', 'position=0&count=all'],
    ['count given twice', 'position=0&count=1&count=500'],
    ['shuffle junk (an unknown parameter) without a position', 'shuffle=1e9'],
  ];
  await runGroup(r, sent, 'player: GET /api/tracks/queue', [
    {
      endpoint: 'GET /api/tracks/queue',
      cases: [
        ...cases.map(([name, query]) => ({ name, send: q(query), status: 400 })),
        {
          name: 'POST (405)',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/tracks/queue?position=0', {
              data: { position: m },
              headers: SAME_ORIGIN,
            }),
        },
      ],
    },
  ]);
  // What it must still answer: a window far past the end is empty, a huge count is clamped.
  const past = await r.anon.get('/api/tracks/queue?position=999999999&count=5');
  expect(past.status()).toBe(200);
  expect(((await past.json()) as { tracks: unknown[] }).tracks).toEqual([]);
  const clamped = await r.anon.get('/api/tracks/queue?position=0&count=999999');
  expect(clamped.status()).toBe(200);
});

test('hostile input: GET /api/plays/token', async () => {
  // A token for any GET (the player asks before each report), never readable cross-origin.
  const token =
    (headers: Record<string, string>, query = '') =>
    async (ctx: APIRequestContext) => {
      const res = await ctx.get(`/api/plays/token${query}`, { headers });
      expect.soft(res.headers()['access-control-allow-origin'], 'no CORS header').toBeUndefined();
      expect.soft(res.headers()['cache-control'] ?? '', 'never cached').not.toMatch(/public/);
      return res;
    };
  await runGroup(r, sent, 'plays: GET /api/plays/token', [
    {
      endpoint: 'GET /api/plays/token',
      cases: [
        ...(['post', 'put', 'delete'] as const).map((method) => ({
          name: `${method.toUpperCase()} (405)`,
          send: (ctx: APIRequestContext, m: string) =>
            req(ctx, method, '/api/plays/token', { data: { token: m }, headers: SAME_ORIGIN }),
        })),
        {
          name: 'from another site (Origin)',
          send: token({ Origin: 'https://evil.example' }),
          allow: [200],
        },
        {
          name: 'with a forged X-Forwarded-For',
          send: token({ 'X-Forwarded-For': '1.2.3.4, <script>, ::ffff:999.1.1.1' }),
          allow: [200],
        },
        {
          name: 'with a 4 KB User-Agent',
          send: token({ 'User-Agent': 'u'.repeat(4096) }),
          allow: [200],
        },
        { name: 'without a User-Agent', send: token({ 'User-Agent': '' }), allow: [200] },
        {
          name: 'with junk query parameters',
          send: (ctx, m) => token({}, `?host=${m}&token[$ne]=1&track=-1`)(ctx),
          allow: [200],
        },
        {
          name: 'with a forged Referer (a host to be credited)',
          send: token({ Referer: 'https://forger.example/embed' }),
          allow: [200],
        },
        {
          name: 'with a 4 KB Host-like header',
          send: token({ 'X-Forwarded-Host': 'h'.repeat(4096) }),
          allow: [200],
        },
      ],
    },
  ]);
  const a = (await (await r.anon.get('/api/plays/token')).json()) as { token?: unknown };
  expect(typeof a.token).toBe('string');
});
