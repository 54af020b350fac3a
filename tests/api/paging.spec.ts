import { type APIRequestContext, type APIResponse, expect, test } from '@playwright/test';

import { expectError, expectJson, SAME_ORIGIN, unique, useRoles } from './helpers';

/**
 * The list endpoints in pages over HTTP (docs/api.md "Lists in pages", decision 045): `limit`
 * and `cursor`, the `Link: <…>; rel="next"` header (none on the last page), 400s for a bad
 * limit or cursor, cursors that visit every record exactly once while records are added
 * between requests, and the unparameterised answer (streamed) still carrying every record.
 * Other tests write meanwhile: each test asserts on the records it created.
 */
const r = useRoles();

const LISTS = [
  { path: '/api/tracks', role: 'anon' },
  { path: '/api/blog', role: 'anon' },
  { path: '/api/blog?category=NEWS', role: 'anon' },
  { path: '/api/gallery', role: 'anon' },
  { path: '/api/shows', role: 'anon' },
  { path: '/api/admin/subscribers', role: 'admin' },
  { path: '/api/admin/messages', role: 'admin' },
] as const;

const withQuery = (path: string, query: string) =>
  `${path}${path.includes('?') ? '&' : '?'}${query}`;

function nextOf(response: APIResponse): string | null {
  const link = response.headers()['link'];
  if (!link) return null;
  const match = /^<([^>]+)>; rel="next"$/.exec(link);
  expect(match, link).not.toBeNull();
  return match![1]!;
}

type Row = { id: number } & Record<string, unknown>;

/** Every page from `first` on, following Link; `between` runs after each page but the last. */
async function walk(
  ctx: APIRequestContext,
  first: string,
  between: () => Promise<void> = async () => {},
): Promise<Row[]> {
  const seen: Row[] = [];
  let next: string | null = first;
  while (next) {
    const response = await ctx.get(next);
    const page = (await expectJson(response, 200)) as Row[];
    expect(page.length).toBeGreaterThan(0);
    seen.push(...page);
    next = nextOf(response);
    if (next) await between();
  }
  return seen;
}

for (const list of LISTS) {
  test(`${list.path}: limit, cursor and Link; bad ones are 400s`, async () => {
    const ctx = r[list.role];
    const whole = (await expectJson(await ctx.get(list.path), 200)) as Row[];
    expect(Array.isArray(whole)).toBe(true);

    const first = await ctx.get(withQuery(list.path, 'limit=1'));
    const page = (await expectJson(first, 200)) as Row[];
    expect(page.length).toBeLessThanOrEqual(1);
    const next = nextOf(first);
    if (next) {
      expect(next).toContain('limit=1');
      expect(next).toMatch(/[?&]cursor=[A-Za-z0-9_-]+/);
      if (list.path.includes('category=NEWS')) expect(next).toContain('category=NEWS');
      const second = (await expectJson(await ctx.get(next), 200)) as Row[];
      expect(second[0]?.id).not.toBe(page[0]?.id);
    }
    // A limit past the list's size: one page, no Link.
    const last = await ctx.get(withQuery(list.path, 'limit=100'));
    if (whole.length < 90) expect(last.headers()['link']).toBeUndefined();

    for (const bad of ['limit=abc', 'limit=0', 'limit=2.5']) {
      await expectError(await ctx.get(withQuery(list.path, bad)), 400, /limit/);
    }
    await expectError(
      await ctx.get(withQuery(list.path, 'limit=5&cursor=not-a-cursor')),
      400,
      'Invalid cursor',
    );
    await expectError(await ctx.get(withQuery(list.path, 'cursor=')), 400, 'Invalid cursor');
  });
}

test('the admin lists need an admin, also in pages', async () => {
  await expectError(await r.anon.get('/api/admin/subscribers?limit=5'), 401);
  await expectError(await r.user.get('/api/admin/messages?limit=5&cursor=x'), 403);
});

test('subscribers and messages: cursors visit every one once while more arrive', async () => {
  test.setTimeout(120_000);
  const marker = `paging-${unique()}`;
  const subscribe = (email: string) =>
    r.anon.post('/api/subscribe', { data: { email }, headers: SAME_ORIGIN });
  const contact = (name: string, message = `From ${marker}`) =>
    r.anon.post('/api/contact', {
      data: { name, email: 'paging@example.test', subject: 'General Question', message },
      headers: SAME_ORIGIN,
    });
  for (let i = 0; i < 45; i++) {
    expect((await subscribe(`${marker}-${i}@example.test`)).status()).toBe(201);
    expect((await contact(`${marker} ${i}`)).status()).toBe(201);
  }
  const isSub = (row: Row) => new RegExp(`^${marker}-\\d+@`).test(String(row.email));
  const isMsg = (row: Row) => row.message === `From ${marker}`;
  const wholeSubs = (await expectJson(await r.admin.get('/api/admin/subscribers'), 200)) as Row[];
  const wholeMsgs = (await expectJson(await r.admin.get('/api/admin/messages'), 200)) as Row[];
  const subs = wholeSubs.filter(isSub).map((s) => s.id);
  const msgs = wholeMsgs.filter(isMsg).map((m) => m.id);
  expect(subs).toHaveLength(45);
  expect(msgs).toHaveLength(45);

  let late = 0;
  const addMore = async () => {
    late += 1;
    expect((await subscribe(`${marker}-late${late}@example.test`)).status()).toBe(201);
    expect((await contact(`${marker} late ${late}`, `Later from ${marker}`)).status()).toBe(201);
  };
  const pagedSubs = await walk(r.admin, '/api/admin/subscribers?limit=10', addMore);
  const pagedMsgs = await walk(r.admin, '/api/admin/messages?limit=10', addMore);
  expect(pagedSubs.filter(isSub).map((s) => s.id)).toEqual(subs);
  expect(pagedMsgs.filter(isMsg).map((m) => m.id)).toEqual(msgs);
  expect(new Set(pagedSubs.map((s) => s.id)).size).toBe(pagedSubs.length);
  expect(new Set(pagedMsgs.map((m) => m.id)).size).toBe(pagedMsgs.length);

  // The unparameterised answers still carry every record, the late ones too.
  const after = (await expectJson(await r.admin.get('/api/admin/subscribers'), 200)) as Row[];
  const all = (row: Row) => String(row.email).startsWith(`${marker}-`);
  expect(after.filter(all)).toHaveLength(45 + late);
});

test('/api/tracks and /api/shows in pages are the whole list, locked as for the caller', async () => {
  for (const [ctx, path] of [
    [r.anon, '/api/tracks'],
    [r.user, '/api/tracks'],
  ] as const) {
    const whole = (await expectJson(await ctx.get(path), 200)) as Row[];
    const paged = await walk(ctx, `${path}?limit=3`);
    const ids = (rows: Row[]) => new Set(rows.map((t) => t.id));
    // Others may add or delete tracks meanwhile: compare what both saw.
    const both = [...ids(whole)].filter((id) => ids(paged).has(id));
    expect(both.length).toBeGreaterThan(0);
    const byId = new Map(paged.map((t) => [t.id, t]));
    for (const t of whole.filter((t) => byId.has(t.id))) {
      expect(byId.get(t.id)?.locked).toBe(t.locked);
    }
  }
  const shows = (await expectJson(await r.anon.get('/api/shows'), 200)) as Row[];
  const pagedShows = await walk(r.anon, '/api/shows?limit=2');
  const showIds = new Set(pagedShows.map((s) => s.id));
  expect(shows.filter((s) => showIds.has(s.id)).length).toBeGreaterThan(0);
});
