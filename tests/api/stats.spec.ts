import { expect, test } from '@playwright/test';

import {
  baseURL,
  disposeRoles,
  expectError,
  expectJson,
  type Roles,
  roles,
  SAME_ORIGIN,
} from './helpers';

/**
 * POST /api/plays and GET /api/admin/stats (decision 024). The api server's counts are shared
 * by every test of this project, so the assertions are on differences and on this file's own
 * client (a user agent of its own).
 */
let r: Roles;
test.beforeAll(async () => {
  r = await roles();
});
test.afterAll(async () => {
  await disposeRoles(r);
});

type Report = {
  days: number;
  from: string;
  to: string;
  daily: { day: string; plays: number; starts: number; views: number; visits: number }[];
  totals: { plays: number; starts: number; views: number; visits: number };
  topTracks: { id: number; title: string; plays: number; starts: number }[];
  topPages: { path: string; views: number }[];
  topReferrers: { host: string; visits: number }[];
  topEmbedHosts: { host: string; plays: number }[];
};

const stats = async (days = 7) =>
  (await expectJson(await r.admin.get(`/api/admin/stats?days=${days}`), 200)) as Report;

/** The counts are written every few seconds: wait for them. */
const settled = <T>(read: () => Promise<T>, check: (value: T) => boolean) =>
  expect.poll(async () => check(await read()), { timeout: 15_000, intervals: [500] }).toBe(true);

test('GET /api/admin/stats: a period of days ending today; 400 for another period', async () => {
  const week = await stats(7);
  expect(week.days).toBe(7);
  expect(week.daily).toHaveLength(7);
  expect(week.daily.at(-1)?.day).toBe(week.to);
  expect((await stats(90)).daily).toHaveLength(90);
  await expectError(await r.admin.get('/api/admin/stats?days=12'), 400, 'days must be 7, 30 or 90');
  expect((await r.anon.get('/api/admin/stats')).status()).toBe(401);
});

test('POST /api/plays: 204, counted once per client and track; 400 and 404 for bad bodies', async ({
  playwright,
}) => {
  const tracks = (await expectJson(await r.anon.get('/api/tracks'), 200)) as {
    id: number;
    locked?: boolean;
  }[];
  const track = tracks.find((t) => !t.locked)!;
  const before = (await stats()).topTracks.find((t) => t.id === track.id)?.plays ?? 0;
  const listener = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: {
      ...SAME_ORIGIN,
      'User-Agent': `Mozilla/5.0 stats-spec-listener-${Date.now()} Chrome/156.0`,
    },
  });
  try {
    const { token } = (await expectJson(await listener.get('/api/plays/token'), 200)) as {
      token: string;
    };
    for (let i = 0; i < 3; i++) {
      const response = await listener.post('/api/plays', { data: { trackId: track.id, token } });
      expect(response.status()).toBe(204);
    }
    await expectError(await listener.post('/api/plays', { data: { trackId: 'x' } }), 400);
    await expectError(
      await listener.post('/api/plays', { data: { trackId: 999999 } }),
      404,
      'Track not found',
    );
  } finally {
    await listener.dispose();
  }
  await settled(
    stats,
    (s) => (s.topTracks.find((t) => t.id === track.id)?.plays ?? 0) === before + 1,
  );
});

test('plays without a token of their own client are answered alike and not counted (issue 38)', async ({
  playwright,
}) => {
  const tracks = (await expectJson(await r.anon.get('/api/tracks'), 200)) as {
    id: number;
    locked?: boolean;
  }[];
  const track = tracks.filter((t) => !t.locked).at(-1)!;
  const stamp = Date.now().toString(36);
  const forgedHost = `forged-${stamp}.example`;
  const client = (name: string) =>
    playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: {
        ...SAME_ORIGIN,
        'User-Agent': `Mozilla/5.0 ${name}-${stamp} Chrome/156.0`,
      },
    });
  const forger = await client('forger');
  const victim = await client('victim');
  const honest = await client('honest');
  try {
    const before = await stats();
    const playsBefore = before.topTracks.find((t) => t.id === track.id)?.plays ?? 0;
    // The forger takes an embed page with a made-up Referer, and a site token of its own…
    const embedPage = await forger.get(`/embed/tracks/${track.id}`, {
      headers: { Referer: `https://${forgedHost}/post` },
    });
    const embedToken = /"token":"([^"]+)"/.exec(await embedPage.text())?.[1];
    expect(embedToken).toContain(forgedHost);
    const { token: forgerToken } = (await expectJson(
      await forger.get('/api/plays/token'),
      200,
    )) as {
      token: string;
    };
    // …which count nothing from another client, nor does a report with no token or a bad one.
    for (const data of [
      { trackId: track.id },
      { trackId: track.id, token: forgerToken },
      { trackId: track.id, embed: embedToken },
      { trackId: track.id, token: `${forgerToken.slice(0, -2)}xx` },
    ]) {
      expect((await victim.post('/api/plays', { data })).status()).toBe(204);
    }
    // An honest report after them is the one play counted; the forged host gets none.
    const { token } = (await expectJson(await honest.get('/api/plays/token'), 200)) as {
      token: string;
    };
    expect((await honest.post('/api/plays', { data: { trackId: track.id, token } })).status()).toBe(
      204,
    );
    await settled(
      stats,
      (s) => (s.topTracks.find((t) => t.id === track.id)?.plays ?? 0) >= playsBefore + 1,
    );
    const after = await stats();
    expect(after.topTracks.find((t) => t.id === track.id)?.plays).toBe(playsBefore + 1);
    expect(after.topEmbedHosts.find((h) => h.host === forgedHost)).toBeUndefined();
  } finally {
    await Promise.all([forger.dispose(), victim.dispose(), honest.dispose()]);
  }
});

test('a page seen by a browser is a visit with the referring site; a bot is not counted', async ({
  playwright,
}) => {
  // Other tests of this server view pages too: this one recognises its own visits by the
  // referring sites, unique to it.
  const stamp = Date.now().toString(36);
  const readerFrom = `reader-${stamp}.example`;
  const botFrom = `bot-${stamp}.example`;
  const visitsFrom = (s: Report, host: string) =>
    s.topReferrers.find((x) => x.host === host)?.visits ?? 0;
  const bot = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: {
      'User-Agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      Referer: `https://${botFrom}/`,
    },
  });
  const reader = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: {
      'User-Agent': `Mozilla/5.0 stats-spec-reader-${stamp} Chrome/156.0`,
      Referer: `https://${readerFrom}/a/page?with=query`,
    },
  });
  try {
    // The bot first: by the time the reader's visit is written, the bot's would be too.
    for (let i = 0; i < 3; i++) expect((await bot.get('/blog')).status()).toBe(200);
    expect((await reader.get('/blog')).status()).toBe(200);
    expect((await reader.get('/music')).status()).toBe(200);
  } finally {
    await reader.dispose();
    await bot.dispose();
  }
  await settled(stats, (s) => visitsFrom(s, readerFrom) === 1);
  expect(visitsFrom(await stats(), botFrom)).toBe(0);
});
