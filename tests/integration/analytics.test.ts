import { beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type * as StatsModelModule from '~/models/stats.server';
import type * as SubscribersModule from '~/models/subscriber.server';
import type * as TrackWritesModule from '~/models/track-writes.server';
import type * as AnalyticsModule from '~/services/analytics.server';
import type * as StatsModule from '~/services/stats.server';
import type * as TimeModule from '~/utils/time';

import { clearDatabase, setupTestDatabase } from '../helpers/test-db';

/**
 * Counting plays and visits (decision 024), on the embedded store. Requests carry the client
 * address the request tracker would have set; `flushStats` writes what a process buffered.
 */
setupTestDatabase();

let analytics: typeof AnalyticsModule;
let statsModel: typeof StatsModelModule;
let stats: typeof StatsModule;
let trackWrites: typeof TrackWritesModule;
let subscribers: typeof SubscribersModule;
let time: typeof TimeModule;

beforeAll(async () => {
  analytics = await import('~/services/analytics.server');
  statsModel = await import('~/models/stats.server');
  stats = await import('~/services/stats.server');
  trackWrites = await import('~/models/track-writes.server');
  subscribers = await import('~/models/subscriber.server');
  time = await import('~/utils/time');
});
beforeEach(async () => {
  await clearDatabase();
});

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

function request(
  path: string,
  client: { ip: string; ua?: string },
  init: { method?: string; headers?: Record<string, string> } = {},
) {
  return new Request(`http://localhost:3000${path}`, {
    method: init.method ?? 'GET',
    headers: {
      'x-night-shore-client-ip': client.ip,
      'user-agent': client.ua ?? BROWSER,
      ...init.headers,
    },
  });
}

const today = () => time.siteToday();
const report = () => stats.statsReport(7);

describe('plays', () => {
  it('beacons from one client within 30 minutes count once; from two clients, twice', async () => {
    const track = await trackWrites.createTrack({
      title: 'Counted',
      duration: '3:00',
      coverImage: '/uploads/images/c.jpg',
      audioFile: '/uploads/audio/c.mp3',
    });
    const alice = { ip: '203.0.113.7' };
    for (let i = 0; i < 3; i++) analytics.countPlay(request('/api/plays', alice), track.id);
    await analytics.flushStats();
    analytics.countPlay(request('/api/plays', alice), track.id); // a later batch: still a repeat
    await analytics.flushStats();
    let r = await report();
    expect(r.totals.plays).toBe(1);
    analytics.countPlay(request('/api/plays', { ip: '198.51.100.9' }), track.id);
    await analytics.flushStats();
    r = await report();
    expect(r.totals.plays).toBe(2);
    expect(r.daily.at(-1)).toMatchObject({ day: today(), plays: 2 });
    expect(r.topTracks).toEqual([{ id: track.id, title: 'Counted', plays: 2, starts: 0 }]);
    // The same client with another browser is another client.
    analytics.countPlay(
      request('/api/plays', { ip: '203.0.113.7', ua: `${BROWSER} Edg/156` }),
      track.id,
    );
    await analytics.flushStats();
    expect((await report()).totals.plays).toBe(3);
  });

  it('a no-JS request for the audio from its first byte counts as a play start, kept apart', async () => {
    const track = await trackWrites.createTrack({
      title: 'Started',
      duration: '3:00',
      coverImage: '/uploads/images/s.jpg',
      audioFile: '/uploads/audio/s.mp3',
    });
    const fan = { ip: '192.0.2.44' };
    analytics.countPlayStart(
      request(track.audioFile, fan, { headers: { Range: 'bytes=0-' } }),
      track.audioFile,
    );
    analytics.countPlayStart(
      request(track.audioFile, fan, { headers: { Range: 'bytes=5000-' } }),
      track.audioFile,
    );
    analytics.countPlayStart(request(track.audioFile, { ip: '192.0.2.45' }), track.audioFile);
    analytics.countPlayStart(
      request(track.audioFile, { ip: '192.0.2.46', ua: BOT }),
      track.audioFile,
    );
    await analytics.flushStats();
    const r = await report();
    expect(r.totals).toMatchObject({ starts: 2, plays: 0 });
    expect(r.topTracks).toEqual([{ id: track.id, title: 'Started', plays: 0, starts: 2 }]);
  });
});

describe('visits', () => {
  it('counts views of public pages, a visit per client per 30 minutes with its referrer; never bots or private pages', async () => {
    const reader = { ip: '203.0.113.20' };
    analytics.countPageView(
      request('/music?q=x', reader, { headers: { Referer: 'https://news.example.org/article' } }),
      200,
    );
    analytics.countPageView(
      request('/blog', reader, { headers: { Referer: 'http://localhost:3000/music' } }),
      200,
    );
    analytics.countPageView(request('/blog', { ip: '203.0.113.21' }), 200);
    analytics.countPageView(request('/blog', { ip: '203.0.113.22', ua: BOT }), 200);
    analytics.countPageView(request('/admin', reader), 200);
    analytics.countPageView(request('/account/favourites', reader), 200);
    analytics.countPageView(request('/missing', reader), 404);
    await analytics.flushStats();
    const r = await report();
    expect(r.totals).toMatchObject({ views: 3, visits: 2 });
    expect(r.topPages).toEqual([
      { path: '/blog', views: 2 },
      { path: '/music', views: 1 },
    ]);
    expect(r.topReferrers).toEqual([{ host: 'news.example.org', visits: 1 }]);
  });

  it("two app instances on one database add up, and see each other's repeats", async () => {
    // Two processes share the database, not their buffers: the sightings in the database
    // are what makes a client seen through A a repeat through B.
    const a = { ip: '198.51.100.1' };
    const b = { ip: '198.51.100.2' };
    analytics.countPageView(request('/', a), 200);
    await analytics.flushStats(); // instance A's flush
    analytics.countPageView(request('/', a), 200); // the same client, through instance B
    analytics.countPageView(request('/', b), 200);
    await statsModel.addDailyCounts([{ day: today(), metric: 'view', key: '/shows', n: 5 }]); // B's direct write
    await analytics.flushStats();
    const r = await report();
    expect(r.totals).toMatchObject({ views: 8, visits: 2 });
  });
});

describe('the report', () => {
  it('gives a known week day by day, with subscribers over time', async () => {
    const t = today();
    const day = (n: number) => time.addDaysToDateString(t, -n);
    await statsModel.addDailyCounts([
      { day: day(6), metric: 'view', key: '/', n: 10 },
      { day: day(6), metric: 'visit', key: '', n: 4 },
      { day: day(3), metric: 'play', key: '1', n: 7 },
      { day: day(0), metric: 'view', key: '/music', n: 3 },
      { day: day(7), metric: 'view', key: '/', n: 99 }, // outside the 7 days
    ]);
    await subscribers.createSubscriber({ email: 'early@example.com' });
    const r = await report();
    expect(r.from).toBe(day(6));
    expect(r.to).toBe(t);
    expect(r.daily.map((d) => d.views)).toEqual([10, 0, 0, 0, 0, 0, 3]);
    expect(r.daily.map((d) => d.visits)).toEqual([4, 0, 0, 0, 0, 0, 0]);
    expect(r.daily.map((d) => d.plays)).toEqual([0, 0, 0, 7, 0, 0, 0]);
    expect(r.subscribers.at(-1)).toEqual({ day: t, total: 1, joined: 1 });
    const csv = stats.statsCsv(r);
    expect(csv.split('\r\n')[1]).toBe(`"${day(6)}","0","0","10","4","0"`);
  });

  it('counts the active subscribers who joined each site day, and those before the period', async () => {
    const t = today();
    const day = (n: number) => time.addDaysToDateString(t, -n);
    const start = (n: number) => new Date(time.siteDayStart(day(n)));
    // Who joined when: the first instant of a site day is that day, the last one before it
    // the day before; those who left are not counted on the day they joined.
    const joins: [string, Date, 'active' | 'unsubscribed'][] = [
      ['long-ago', start(400), 'active'],
      ['eve', new Date(start(6).getTime() - 1), 'active'],
      ['first', start(6), 'active'],
      ['mid-a', new Date(start(3).getTime() + 5 * 3_600_000), 'active'],
      ['mid-b', new Date(start(3).getTime() + 23 * 3_600_000), 'active'],
      ['left', new Date(start(3).getTime() + 3_600_000), 'unsubscribed'],
      ['late', new Date(start(0).getTime() + 60_000), 'active'],
    ];
    for (const [name, at, status] of joins) {
      const s = await subscribers.createSubscriber({ email: `${name}@example.com` });
      // `createdAt` is immutable to mongoose: set it as a backfill would, in the store.
      await subscribers.Subscriber.collection.updateOne(
        { id: s.id },
        { $set: { createdAt: at, status } },
      );
    }
    const r = await report();
    expect(r.subscribers.map((d) => d.joined)).toEqual([1, 0, 0, 2, 0, 0, 1]);
    expect(r.subscribers.map((d) => d.total)).toEqual([3, 3, 3, 5, 5, 5, 6]);
    expect(r.subscribers.map((d) => d.day)).toEqual([6, 5, 4, 3, 2, 1, 0].map(day));
  });
});
