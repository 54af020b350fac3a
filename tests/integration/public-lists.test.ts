import { beforeAll, describe, expect, it } from 'vitest';

import type * as BlogModule from '~/models/blog-post.server';
import type * as GalleryModule from '~/models/gallery-image.server';
import type * as ShowModule from '~/models/show.server';
import type * as TrackModule from '~/models/track.server';
import type * as TrackListsModule from '~/models/track-lists.server';
import { ANONYMOUS, FULL_ACCESS } from '~/utils/access';

import { clearDatabase, setupTestDatabase } from '../helpers/test-db';

/**
 * The public lists' page functions (issue 37) on the embedded store: /music's search and type
 * filter over the whole catalogue, a page at a time; /blog's cards without their bodies;
 * /gallery's pages; /shows' upcoming and past pages; the footer's bounded reads.
 */
setupTestDatabase();

let tracks: typeof TrackModule;
let lists: typeof TrackListsModule;
let blog: typeof BlogModule;
let gallery: typeof GalleryModule;
let shows: typeof ShowModule;

beforeAll(async () => {
  tracks = await import('~/models/track.server');
  lists = await import('~/models/track-lists.server');
  blog = await import('~/models/blog-post.server');
  gallery = await import('~/models/gallery-image.server');
  shows = await import('~/models/show.server');
});

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));

async function addTrack(title: string, minute: number, extra: Record<string, unknown> = {}) {
  const doc = await tracks.Track.create({
    title,
    artist: 'Night Shore',
    type: 'Single',
    coverImage: '/uploads/images/cover.jpg',
    audioFile: `/uploads/audio/${minute}.mp3`,
    description: 'A long description the footer must not carry.',
    createdAt: at(minute),
    ...extra,
  });
  return doc.id;
}

describe('/music: findTrackPageFor', () => {
  beforeAll(async () => {
    await clearDatabase();
    // 30 tracks of one series (26 mixes, 4 singles), newest last made; and two others.
    for (let i = 0; i < 30; i++)
      await addTrack(`Pagetest ${String(i).padStart(2, '0')}`, i, {
        type: i < 26 ? 'Mix' : 'Single',
      });
    await addTrack('Harbour Lights', 40, { album: 'Zephyr Sessions' });
    await addTrack('Low Tide', 41, { artist: 'The Zephyrs' });
  });

  it('pages newest first with the total, the page count and the queue', async () => {
    const first = await lists.findTrackPageFor(ANONYMOUS, { page: 1 });
    expect(first).toMatchObject({ page: 1, pageCount: 2, total: 32, perPage: 24 });
    expect(first.items).toHaveLength(24);
    expect(first.items[0].title).toBe('Low Tide');
    expect(first.queueSize).toBe(32);
    expect(first.queueOffset).toBe(0);
    const second = await lists.findTrackPageFor(ANONYMOUS, { page: 2 });
    expect(second.items).toHaveLength(8);
    expect(second.queueOffset).toBe(24);
    const ids = [...first.items, ...second.items].map((t) => t.id);
    expect(new Set(ids).size).toBe(32);
    expect(second.items.at(-1)?.title).toBe('Pagetest 00');
  });

  it('shows the last page for a page past the end', async () => {
    const past = await lists.findTrackPageFor(ANONYMOUS, { page: 99 });
    expect(past.page).toBe(2);
    expect(past.items).toHaveLength(8);
  });

  it('searches title, artist and album, case-insensitively, over every page', async () => {
    const found = await lists.findTrackPageFor(ANONYMOUS, { q: 'PAGETEST', page: 2 });
    expect(found).toMatchObject({ page: 2, pageCount: 2, total: 30, queueSize: 32 });
    expect(found.items.map((t) => t.title)).toEqual(
      ['05', '04', '03', '02', '01', '00'].map((n) => `Pagetest ${n}`),
    );
    expect(found.queueOffset).toBeNull();
    const zephyr = await lists.findTrackPageFor(ANONYMOUS, { q: 'zephyr', page: 1 });
    expect(zephyr.items.map((t) => t.title)).toEqual(['Low Tide', 'Harbour Lights']);
    const none = await lists.findTrackPageFor(ANONYMOUS, { q: 'zz-none', page: 3 });
    expect(none).toMatchObject({ items: [], page: 1, pageCount: 1, total: 0 });
  });

  it('filters by type in the query, with the search', async () => {
    const mixes = await lists.findTrackPageFor(ANONYMOUS, { types: ['Mix'], page: 2 });
    expect(mixes).toMatchObject({ total: 26, pageCount: 2, queueOffset: null });
    expect(mixes.items).toHaveLength(2);
    expect(mixes.items.every((t) => t.type === 'Mix')).toBe(true);
    const both = await lists.findTrackPageFor(ANONYMOUS, {
      q: 'pagetest 2',
      types: ['Mix'],
      page: 1,
    });
    expect(both.items.map((t) => t.title)).toEqual(
      ['25', '24', '23', '22', '21', '20'].map((n) => `Pagetest ${n}`),
    );
  });

  it('locks members-only tracks for a visitor, not for a member', async () => {
    const id = await addTrack('Pagelock Secret', 50, { visibility: 'members' });
    const visitor = await lists.findTrackPageFor(ANONYMOUS, { q: 'pagelock', page: 1 });
    expect(visitor.items[0]).toMatchObject({ id, locked: true });
    expect(visitor.items[0]).not.toHaveProperty('audioFile');
    const member = await lists.findTrackPageFor(FULL_ACCESS, { q: 'pagelock', page: 1 });
    expect(member.items[0]).toMatchObject({ id, locked: false });
  });

  it('the footer reads the latest releases as teasers', async () => {
    const latest = await lists.listLatestTrackTeasers(5);
    expect(latest).toHaveLength(5);
    expect(latest[0]).toMatchObject({ title: 'Pagelock Secret', visibility: 'members' });
    expect(Object.keys(latest[0]).sort()).toEqual(
      ['coverImage', 'id', 'publicAt', 'title', 'type', 'visibility'].sort(),
    );
  });
});

describe('/blog: findBlogPostCardPage', () => {
  beforeAll(async () => {
    await clearDatabase();
    for (let i = 0; i < 20; i++) {
      await blog.createBlogPost({
        title: `Post ${i}`,
        slug: `post-${i}`,
        content: 'The whole body of the post, which a card never shows.',
        excerpt: `Excerpt ${i}`,
        imageUrl: '/uploads/images/post.jpg',
        category: i % 2 === 0 ? 'EVENTS' : 'NEWS',
        visibility: i === 19 ? 'members' : 'public',
        publicAt: null,
      });
    }
  });

  it('pages the cards without their bodies', async () => {
    const first = await blog.findBlogPostCardPage(ANONYMOUS, { page: 1 });
    expect(first).toMatchObject({ page: 1, pageCount: 2, total: 20, perPage: 13 });
    expect(first.items[0]).toMatchObject({ title: 'Post 19', locked: true });
    expect(first.items[1]).toMatchObject({ title: 'Post 18', locked: false });
    expect(first.items.some((p) => 'content' in p)).toBe(false);
    const second = await blog.findBlogPostCardPage(ANONYMOUS, { page: 5 });
    expect(second.page).toBe(2);
    expect(second.items).toHaveLength(7);
    const member = await blog.findBlogPostCardPage(FULL_ACCESS, { page: 1 });
    expect(member.items[0].locked).toBe(false);
  });

  it('filters by category in the query', async () => {
    const events = await blog.findBlogPostCardPage(ANONYMOUS, {
      category: 'EVENTS',
      page: 1,
      perPage: 4,
    });
    expect(events).toMatchObject({ total: 10, pageCount: 3 });
    expect(events.items.map((p) => p.title)).toEqual(['Post 18', 'Post 16', 'Post 14', 'Post 12']);
  });
});

describe('/gallery: findGalleryImagePage', () => {
  it('pages 24 at a time, newest first', async () => {
    await clearDatabase();
    for (let i = 0; i < 30; i++)
      await gallery.createGalleryImage({
        title: `Image ${i}`,
        imageUrl: `/uploads/images/${i}.jpg`,
      });
    const first = await gallery.findGalleryImagePage({ page: 1 });
    expect(first).toMatchObject({ page: 1, pageCount: 2, total: 30 });
    expect(first.items[0].title).toBe('Image 29');
    const second = await gallery.findGalleryImagePage({ page: 2 });
    expect(second.items.map((i) => i.title).at(-1)).toBe('Image 0');
    expect(second.items).toHaveLength(6);
  });
});

describe('/shows: findShowPage and the footer', () => {
  const today = '2026-06-15';
  const show = (title: string, date: string, time = '8:00 PM') =>
    shows.createShow({ title, venue: `${title} venue`, location: 'Asbury Park, NJ', date, time });

  beforeAll(async () => {
    await clearDatabase();
    // 25 past shows, one a day before today; upcoming: today and later, two on one day.
    for (let i = 1; i <= 25; i++) {
      const d = new Date(Date.UTC(2026, 5, 15 - i)).toISOString().slice(0, 10);
      await show(`Past ${String(i).padStart(2, '0')}`, d);
    }
    await show('Late', '2026-06-20', '11:00 PM');
    await show('Early', '2026-06-20', '6:00 PM');
    await show('Today', today, '9:00 PM');
    for (let i = 0; i < 6; i++) await show(`Later ${i}`, `2026-07-0${i + 1}`);
  });

  it('upcoming: on or after today, soonest first, doors ordering one day', async () => {
    const upcoming = await shows.findShowPage({ when: 'upcoming', page: 1, today });
    expect(upcoming).toMatchObject({ total: 9, pageCount: 1 });
    expect(upcoming.items.slice(0, 3).map((s) => s.title)).toEqual(['Today', 'Early', 'Late']);
    const paged = await shows.findShowPage({ when: 'upcoming', page: 2, perPage: 4, today });
    expect(paged.items.map((s) => s.title)).toEqual(['Later 1', 'Later 2', 'Later 3', 'Later 4']);
  });

  it('past: before today, most recent first, a page at a time', async () => {
    const first = await shows.findShowPage({ when: 'past', page: 1, today });
    expect(first).toMatchObject({ total: 25, pageCount: 2, perPage: 20 });
    expect(first.items[0].title).toBe('Past 01');
    const second = await shows.findShowPage({ when: 'past', page: 7, today });
    expect(second.page).toBe(2);
    expect(second.items.map((s) => s.title)).toEqual([
      'Past 21',
      'Past 22',
      'Past 23',
      'Past 24',
      'Past 25',
    ]);
  });

  it('one day of many shows pages by door time, then id, across page boundaries', async () => {
    const day = '2027-03-03';
    // Made out of door order; two at 9 PM (the older id first); an unreadable time ends the day.
    const made = [];
    for (const [title, time] of [
      ['Day TBA', 'doors TBA'],
      ['Day 10pm', '10:00 PM'],
      ['Day 9pm a', '9:00 PM'],
      ['Day 7pm', '7pm'],
      ['Day 9pm b', '21:00'],
      ['Day noon', '12:00 PM'],
    ] as const)
      made.push(await show(title, day, time));
    const order = ['Day noon', 'Day 7pm', 'Day 9pm a', 'Day 9pm b', 'Day 10pm', 'Day TBA'];
    // Every page of 4 (a page past the end would show the last one again).
    const titles = async (when: 'upcoming' | 'past', day: string) => {
      const out: string[] = [];
      for (let page = 1; ; page++) {
        const found = await shows.findShowPage({ when, page, perPage: 4, today: day });
        out.push(...found.items.map((s) => s.title).filter((t) => t.startsWith('Day ')));
        if (page >= found.pageCount) return out;
      }
    };
    expect(await titles('upcoming', today)).toEqual(order);
    // Past (from a later today): the latest door time first, across the pages.
    expect(await titles('past', '2027-03-04')).toEqual([...order].reverse());
    // A show whose time changes moves within its day.
    await shows.updateShow(made[0]!.id, { ...made[0]!, time: '6:00 AM' });
    const moved = await shows.findShowPage({
      when: 'past',
      page: 1,
      perPage: 50,
      today: '2027-03-04',
    });
    expect(
      moved.items
        .filter((s) => s.date === day)
        .map((s) => s.title)
        .at(-1),
    ).toBe('Day TBA');
    await shows.updateShow(made[0]!.id, { ...made[0]!, time: 'doors TBA' });
  });

  it('shows stored without a door-time key get one at start (idempotent)', async () => {
    const created = await show('Legacy', '2027-04-04', '9:30 PM');
    await shows.Show.collection.updateOne({ id: created.id }, { $unset: { startMinutes: 1 } });
    expect(await shows.migrateShowStartMinutes()).toBe(1);
    expect(await shows.migrateShowStartMinutes()).toBe(0);
    const stored = await shows.Show.collection.findOne({ id: created.id });
    expect(stored?.startMinutes).toBe(21 * 60 + 30);
    await shows.deleteShow(created.id);
  });

  it('the footer: the next shows, a day cut by the limit in door order', async () => {
    const next = await shows.listNextShows(2, today);
    expect(next.map((s) => s.title)).toEqual(['Today', 'Early']);
    expect((await shows.listNextShows(5, today)).map((s) => s.title)).toEqual([
      'Today',
      'Early',
      'Late',
      'Later 0',
      'Later 1',
    ]);
  });
});
