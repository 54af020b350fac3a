import { expect, request, test } from '@playwright/test';

import { baseURL, expectError, expectJson, SAME_ORIGIN, unique } from './helpers';

/**
 * /api/favorites (decision 019): a member's favourites in the account. Each test registers a
 * member of its own and uses the seeded tracks (tracks.spec.ts, which deletes tracks, runs
 * after this project).
 */

async function newMember() {
  const ctx = await request.newContext({ baseURL });
  const credentials = { username: `fan${unique()}`.slice(0, 30), password: 'fan-password-1' };
  const registered = await ctx.post('/api/register', { data: credentials, headers: SAME_ORIGIN });
  expect(registered.status(), await registered.text()).toBe(201);
  return ctx;
}

async function trackIds(): Promise<number[]> {
  const anon = await request.newContext({ baseURL });
  const list = (await (await anon.get('/api/tracks')).json()) as { id: number; locked: boolean }[];
  await anon.dispose();
  return list.filter((t) => !t.locked).map((t) => t.id);
}

test('401 without a session, for every method', async () => {
  const anon = await request.newContext({ baseURL });
  await expectError(await anon.get('/api/favorites'), 401, 'Authentication required');
  await expectError(await anon.put('/api/favorites/1', { headers: SAME_ORIGIN }), 401);
  await expectError(await anon.delete('/api/favorites/1', { headers: SAME_ORIGIN }), 401);
  await expectError(
    await anon.post('/api/favorites', { data: { trackIds: [1] }, headers: SAME_ORIGIN }),
    401,
  );
  await anon.dispose();
});

test('PUT adds (twice is fine), GET lists, DELETE removes; 404 for an unknown track', async () => {
  const member = await newMember();
  const [first, second] = await trackIds();
  expect(await expectJson(await member.get('/api/favorites'), 200)).toEqual({ trackIds: [] });
  for (let i = 0; i < 2; i++) {
    expect(
      await expectJson(await member.put(`/api/favorites/${first}`, { headers: SAME_ORIGIN }), 200),
    ).toEqual({ trackIds: [first] });
  }
  await member.put(`/api/favorites/${second}`, { headers: SAME_ORIGIN });
  expect(await expectJson(await member.get('/api/favorites'), 200)).toEqual({
    trackIds: [first, second],
  });
  const removed = await member.delete(`/api/favorites/${first}`, { headers: SAME_ORIGIN });
  expect(removed.status()).toBe(204);
  expect(await expectJson(await member.get('/api/favorites'), 200)).toEqual({
    trackIds: [second],
  });
  await expectError(
    await member.put('/api/favorites/999999', { headers: SAME_ORIGIN }),
    404,
    'Track not found',
  );
  await expectError(await member.put('/api/favorites/abc', { headers: SAME_ORIGIN }), 404);
  await expectError(
    await member.put(`/api/favorites/${first}`, { headers: { Origin: 'https://evil.example' } }),
    403,
  );
  await member.dispose();
});

test('POST merges a browser list into the account (union, unknown ids dropped); bad bodies are 400', async () => {
  const member = await newMember();
  const [first, second] = await trackIds();
  await member.put(`/api/favorites/${first}`, { headers: SAME_ORIGIN });
  const merged = (await expectJson(
    await member.post('/api/favorites', {
      data: { trackIds: [second, first, 999999] },
      headers: SAME_ORIGIN,
    }),
    200,
  )) as { trackIds: number[] };
  expect([...merged.trackIds].sort()).toEqual([first, second].sort());
  await expectError(
    await member.post('/api/favorites', { data: { trackIds: 'all' }, headers: SAME_ORIGIN }),
    400,
  );
  expect(await expectJson(await member.get('/api/favorites'), 200)).toEqual(merged);
  await member.dispose();
});
