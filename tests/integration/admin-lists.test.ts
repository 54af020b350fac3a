import { beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type * as ShowModule from '~/models/show.server';
import type * as SubscriberModule from '~/models/subscriber.server';
import type * as TrackModule from '~/models/track.server';
import type * as TrackWritesModule from '~/models/track-writes.server';
import type * as ExportModule from '~/routes/admin+/newsletter/export.server';
import type * as SubscribersTabModule from '~/routes/admin+/newsletter/subscribers.server';

import { clearDatabase, setupTestDatabase } from '../helpers/test-db';

/**
 * The back office's lists in pages (issue 37), on the embedded store: pages, counts over every
 * page, server-side search, and the streamed exports that cover every match exactly once.
 */
setupTestDatabase();

let subscribers: typeof SubscriberModule;
let tab: typeof SubscribersTabModule;
let exporter: typeof ExportModule;
let shows: typeof ShowModule;
let tracks: typeof TrackModule;
let trackWrites: typeof TrackWritesModule;

beforeAll(async () => {
  subscribers = await import('~/models/subscriber.server');
  tab = await import('~/routes/admin+/newsletter/subscribers.server');
  exporter = await import('~/routes/admin+/newsletter/export.server');
  shows = await import('~/models/show.server');
  tracks = await import('~/models/track.server');
  trackWrites = await import('~/models/track-writes.server');
});

beforeEach(async () => {
  await clearDatabase();
});

async function addSubscribers(n: number, domain: string, status: 'active' | 'pending' = 'active') {
  const docs = Array.from({ length: n }, (_, i) => {
    const email = `fan${i}@${domain}`;
    return {
      name: `Fan ${i}`,
      email,
      emailLower: email,
      status,
      createdAt: new Date(Date.UTC(2024, 0, 1) + i * 1000),
    };
  });
  for (const doc of docs) await subscribers.Subscriber.create(doc);
}

describe('subscriber list', () => {
  it('pages newest first, counts over every page and searches case-insensitively', async () => {
    await addSubscribers(120, 'paged.example');
    await addSubscribers(7, 'other.example', 'pending');
    const first = await tab.loadSubscribersTab({ q: '', status: null, page: 1 });
    expect(first.list.items).toHaveLength(tab.SUBSCRIBERS_PER_PAGE);
    expect(first.list.total).toBe(127);
    expect(first.list.pageCount).toBe(3);
    expect(first.activeMatches).toBe(120);
    expect(first.totalActive).toBe(120);
    expect(first.others).toBe(7);

    const searched = await tab.loadSubscribersTab({ q: 'PAGED.example', status: null, page: 3 });
    expect(searched.activeMatches).toBe(120);
    expect(searched.totalActive).toBe(120);
    expect(searched.list.page).toBe(3);
    expect(searched.list.items).toHaveLength(20);
    // Newest first: the last page holds the oldest.
    expect(searched.list.items.at(-1)?.email).toBe('fan0@paged.example');

    const pending = await tab.loadSubscribersTab({ q: 'other', status: 'pending', page: 1 });
    expect(pending.activeMatches).toBe(0);
    expect(pending.others).toBe(7);

    const beyond = await tab.loadSubscribersTab({ q: '', status: null, page: 99 });
    expect(beyond.list.page).toBe(3);
  });

  it('counts a search from its only page when that page holds every match', async () => {
    await addSubscribers(60, 'many.example');
    await addSubscribers(3, 'few.example', 'pending');
    await addSubscribers(2, 'few.example.org');
    // Every match on page 1: the counts come from it (no counting pass), statuses included.
    const few = await tab.loadSubscribersTab({ q: 'FEW.example', status: null, page: 1 });
    expect(few.list).toMatchObject({ page: 1, pageCount: 1, total: 5 });
    expect(few.activeMatches).toBe(2);
    expect(few.others).toBe(3);
    expect(few.totalActive).toBe(62);
    // Exactly a page of matches, then one more: counted.
    const many = await tab.loadSubscribersTab({ q: 'many.example', status: null, page: 1 });
    expect(many.list).toMatchObject({ total: 60, pageCount: 2 });
    expect(many.list.items).toHaveLength(tab.SUBSCRIBERS_PER_PAGE);
    expect(many.activeMatches).toBe(60);
    const active = await tab.loadSubscribersTab({ q: 'few', status: 'active', page: 1 });
    expect(active.activeMatches).toBe(2);
    expect(active.list.items.map((s) => s.email)).toEqual([
      'fan1@few.example.org',
      'fan0@few.example.org',
    ]);
    // A page past the end of a search shows its last page; a search matching nothing is empty.
    const beyond = await tab.loadSubscribersTab({ q: 'many.example', status: null, page: 9 });
    expect(beyond.list).toMatchObject({ page: 2, pageCount: 2 });
    expect(beyond.list.items).toHaveLength(10);
    const none = await tab.loadSubscribersTab({ q: 'nobody', status: null, page: 3 });
    expect(none.list).toMatchObject({ page: 1, pageCount: 1, total: 0, items: [] });
    expect(none.activeMatches).toBe(0);
  });

  it('exports every match exactly once, streamed, and the active addresses to copy', async () => {
    await addSubscribers(130, 'csv.example');
    await addSubscribers(5, 'csv.example.net', 'pending');
    await addSubscribers(3, 'elsewhere.example');
    const csv = await exporter
      .subscriberCsvResponse(new URL('http://x/admin/newsletter/subscribers.csv?q=csv.example'))
      .text();
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('"Name","Email","Status","Date Added"');
    const emails = lines.slice(1).map((line) => line.split(',')[1]?.replace(/"/g, ''));
    expect(emails).toHaveLength(135);
    expect(new Set(emails).size).toBe(135);

    const text = await exporter
      .activeEmailsResponse(new URL('http://x/admin/newsletter/emails.txt?q=csv.example'))
      .text();
    const copied = text.split(', ');
    expect(copied).toHaveLength(130);
    expect(new Set(copied).size).toBe(130);
    expect(copied.every((e) => e.endsWith('@csv.example'))).toBe(true);
  });

  it('counts the active sign-ups before a date and in each range after it', async () => {
    await addSubscribers(4, 'joins.example'); // one a second from 2024-01-01T00:00:00Z
    await addSubscribers(3, 'pending.example', 'pending');
    const at = (ms: number) => new Date(Date.UTC(2024, 0, 1) + ms);
    const counts = await subscribers.countActiveJoinsBetween([at(1000), at(1500), at(3000)]);
    // Ranges hold their start, not their end: 0 s before, 1 s in the first, 2 s in the next.
    expect(counts).toEqual({ before: 1, within: [1, 1] });
  });
});

describe('shows and tracks', () => {
  it('pages shows latest first, then by time as a show is read', async () => {
    const base = { venue: 'V', location: 'City, ST', ticketUrl: null, description: null };
    await shows.createShow({ ...base, title: 'Late', date: '2030-01-02', time: '10:00 PM' });
    await shows.createShow({ ...base, title: 'Early', date: '2030-01-02', time: '8:00 PM' });
    await shows.createShow({ ...base, title: 'First', date: '2030-01-01', time: '9:00 PM' });
    await shows.createShow({ ...base, title: 'Old', date: '2001-01-01', time: '9:00 PM' });
    const page = await shows.pageShows({ page: 1, perPage: 10 });
    expect(page.items.map((s) => s.title)).toEqual(['Late', 'Early', 'First', 'Old']);
    expect(await shows.adminPageOfShow(page.items[3]!)).toBe(1);
    const next = await shows.listNextShows(2, '2029-12-31');
    expect(next.map((s) => s.title)).toEqual(['First', 'Early']);
  });

  it('pages tracks with a search over every page and the featured tab', async () => {
    for (let i = 0; i < 30; i++) {
      await trackWrites.createTrack({
        title: `Paged Tune ${i}`,
        artist: i % 2 ? 'Night Shore' : 'Guest',
        duration: '3:00',
        coverImage: '/c.jpg',
        audioFile: `/uploads/audio/p${i}.mp3`,
        featured: i < 3,
      } as Parameters<typeof trackWrites.createTrack>[0]);
    }
    const guests = await tracks.pageTracks({ q: 'guest', page: 2, perPage: 10 });
    expect(guests.total).toBe(15);
    expect(guests.items).toHaveLength(5);
    const featured = await tracks.pageTracks({ featured: true, page: 1, perPage: 10 });
    expect(featured.total).toBe(3);
  });
});
