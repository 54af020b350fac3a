import { beforeAll, describe, expect, it } from 'vitest';

import type * as ApiModule from '~/api/api.server';
import type * as ApiListsModule from '~/api/api-lists.server';
import type * as BlogModule from '~/models/blog-post.server';
import type * as MessagesModule from '~/models/contact-message.server';
import type * as GalleryModule from '~/models/gallery-image.server';
import type * as ShowModule from '~/models/show.server';
import type * as SubscriberModule from '~/models/subscriber.server';
import type * as TrackModule from '~/models/track.server';
import type * as TrackWritesModule from '~/models/track-writes.server';

import { setupTestDatabase } from '../helpers/test-db';

/**
 * The API's list endpoints (decision 045) on the embedded store, through their route loaders:
 * `limit`/`cursor` pages with a `Link: <…>; rel="next"` header, 400s for a bad limit or cursor,
 * cursors that visit every record exactly once while records are inserted between requests,
 * and the unparameterised answer streamed with every record in the documented order. The admin
 * lists (their guard is tested in tests/api) go through the same helper with their own lists.
 */
setupTestDatabase();

const ORIGIN = 'http://localhost:3000';

let lists: typeof ApiListsModule;
let api: typeof ApiModule;
let tracks: typeof TrackModule;
let trackWrites: typeof TrackWritesModule;
let blog: typeof BlogModule;
let gallery: typeof GalleryModule;
let shows: typeof ShowModule;
let subscribers: typeof SubscriberModule;
let messages: typeof MessagesModule;

type Loader = (args: { request: Request; params: object; context: object }) => Promise<Response>;
const routes: Record<string, Loader> = {};

beforeAll(async () => {
  lists = await import('~/api/api-lists.server');
  api = await import('~/api/api.server');
  tracks = await import('~/models/track.server');
  trackWrites = await import('~/models/track-writes.server');
  blog = await import('~/models/blog-post.server');
  gallery = await import('~/models/gallery-image.server');
  shows = await import('~/models/show.server');
  subscribers = await import('~/models/subscriber.server');
  messages = await import('~/models/contact-message.server');
  routes['/api/tracks'] = (await import('~/routes/api+/tracks._index')).loader as Loader;
  routes['/api/blog'] = (await import('~/routes/api+/blog._index')).loader as Loader;
  routes['/api/gallery'] = (await import('~/routes/api+/gallery')).loader as Loader;
  routes['/api/shows'] = (await import('~/routes/api+/shows')).loader as Loader;
});

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

/** GET a public list route by its path and query. */
async function get(pathAndQuery: string): Promise<Response> {
  const url = new URL(pathAndQuery, ORIGIN);
  const loader = routes[url.pathname];
  if (!loader) throw new Error(`no loader for ${url.pathname}`);
  return loader({ request: new Request(url), params: {}, context: {} });
}

/** The `rel="next"` target of a Link header, or null. */
function nextOf(response: Response): string | null {
  const link = response.headers.get('Link');
  if (!link) return null;
  const match = /^<([^>]+)>; rel="next"$/.exec(link);
  expect(match, link).not.toBeNull();
  return match![1]!;
}

/** Follow the Link headers from `first`, calling `between` after each page; every record seen. */
async function walk<T>(first: string, between: () => Promise<void> = async () => {}) {
  const seen: T[] = [];
  const sizes: number[] = [];
  let next: string | null = first;
  while (next) {
    const response = await get(next);
    expect(response.status, next).toBe(200);
    const page = (await response.json()) as T[];
    sizes.push(page.length);
    seen.push(...page);
    next = nextOf(response);
    if (next) await between();
  }
  return { seen, sizes };
}

async function addTracks(marker: string, count: number) {
  for (let i = 0; i < count; i++) {
    await trackWrites.createTrack({
      title: `${marker} ${i}`,
      duration: '3:00',
      type: i % 3 === 0 ? 'Mix' : 'Single',
      coverImage: '/placeholder-album.jpg',
      audioFile: `/uploads/audio/${marker}-${i}.mp3`,
      ...(i % 4 === 0 ? { visibility: 'members' as const } : {}),
    });
  }
}

describe('GET /api/tracks', () => {
  it('pages with limit and a cursor, visiting every track once while tracks are added', async () => {
    const marker = `paged-${unique()}`;
    await addTracks(marker, 45);
    const all = (await (await get('/api/tracks')).json()) as { id: number; title: string }[];
    const originals = all.filter((t) => t.title.startsWith(marker)).map((t) => t.id);
    expect(originals).toHaveLength(45);

    let added = 0;
    const { seen, sizes } = await walk<{ id: number; title: string }>('/api/tracks?limit=10', () =>
      addTracks(`${marker}-late${added++}`, 2),
    );
    const seenOriginals = seen.filter((t) => originals.includes(t.id)).map((t) => t.id);
    expect(seenOriginals).toEqual(originals); // each once, in the list's order
    expect(new Set(seen.map((t) => t.id)).size).toBe(seen.length);
    expect(sizes.slice(0, -1).every((n) => n === 10)).toBe(true);
    expect(sizes.at(-1)).toBeLessThanOrEqual(10);
  });

  it('answers the same records locked for a visitor in pages as in the whole list', async () => {
    const whole = (await (await get('/api/tracks')).json()) as Record<string, unknown>[];
    const { seen } = await walk<Record<string, unknown>>('/api/tracks?limit=7');
    expect(seen).toEqual(whole);
    const locked = whole.find((t) => t.locked === true);
    expect(locked).toBeDefined();
    expect(locked?.audioFile).toBeUndefined();
  });

  it('streams the whole list without parameters, as JSON, newest first', async () => {
    const response = await get('/api/tracks');
    expect(response.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('Link')).toBeNull();
    const body = await response.text();
    const parsed = JSON.parse(body) as { id: number; createdAt: string }[];
    expect(parsed.length).toBe(await tracks.Track.countDocuments());
    const sorted = [...parsed].sort(
      (a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id,
    );
    expect(parsed).toEqual(sorted);
  });

  it('clamps a large limit to 100 and keeps it in the next link; a cursor alone pages by 20', async () => {
    const count = await tracks.Track.countDocuments();
    if (count <= 100) await addTracks(`many-${unique()}`, 101 - count);
    const big = await get('/api/tracks?limit=5000');
    expect(((await big.json()) as unknown[]).length).toBe(100);
    expect(nextOf(big)).toMatch(/^\/api\/tracks\?limit=100&cursor=[A-Za-z0-9_.-]+$/);
    const first = await get('/api/tracks?limit=1');
    const cursor = new URL(nextOf(first)!, ORIGIN).searchParams.get('cursor')!;
    const alone = await get(`/api/tracks?cursor=${cursor}`);
    expect(((await alone.json()) as unknown[]).length).toBe(lists.DEFAULT_API_LIMIT);
    expect(nextOf(alone)).toContain(`limit=${lists.DEFAULT_API_LIMIT}`);
  });

  it('refuses a bad limit or cursor with a JSON 400', async () => {
    for (const query of ['limit=abc', 'limit=0', 'limit=-3', 'limit=1.5', 'limit=']) {
      const response = await get(`/api/tracks?${query}`);
      expect(response.status, query).toBe(400);
      expect(await response.json()).toEqual({ error: lists.LIMIT_ERROR });
    }
    for (const name of ['limit', 'cursor']) {
      const response = await get(`/api/tracks?${name}=1&${name}=2`);
      expect(response.status, name).toBe(400);
      expect(await response.json()).toEqual({ error: lists.repeatedError(name) });
    }
    const forged = Buffer.from(JSON.stringify(['x', 'y'])).toString('base64url');
    for (const cursor of ['!!', forged, '', 'e30']) {
      const response = await get(`/api/tracks?limit=5&cursor=${cursor}`);
      expect(response.status, cursor).toBe(400);
      expect(await response.json()).toEqual({ error: 'Invalid cursor' });
    }
  });
});

describe('GET /api/blog, /api/gallery, /api/shows', () => {
  it('keeps the category in the next link and pages only that category', async () => {
    const marker = `cat-${unique()}`;
    for (let i = 0; i < 12; i++) {
      await blog.createBlogPost({
        title: `${marker} ${i}`,
        slug: `${marker}-${i}`,
        content: 'Content of the post.',
        excerpt: 'Excerpt',
        imageUrl: '/uploads/images/x.jpg',
        category: i % 2 === 0 ? 'REVIEWS' : 'EVENTS',
      });
    }
    const first = await get('/api/blog?category=reviews&limit=4');
    expect(nextOf(first)).toMatch(/^\/api\/blog\?category=reviews&limit=4&cursor=/);
    const { seen } = await walk<{ category: string; title: string }>(
      '/api/blog?category=reviews&limit=4',
    );
    expect(seen.every((p) => p.category === 'REVIEWS')).toBe(true);
    const whole = (await (await get('/api/blog?category=REVIEWS')).json()) as unknown[];
    expect(seen).toEqual(whole);
    expect(seen.filter((p) => p.title.startsWith(marker))).toHaveLength(6);
  });

  it('pages the gallery', async () => {
    for (let i = 0; i < 9; i++)
      await gallery.createGalleryImage({ title: `g ${i}`, imageUrl: `/uploads/images/g${i}.jpg` });
    const whole = (await (await get('/api/gallery')).json()) as unknown[];
    expect(whole.length).toBeGreaterThanOrEqual(9);
    const { seen, sizes } = await walk('/api/gallery?limit=4');
    expect(seen).toEqual(whole);
    expect(sizes.length).toBe(Math.ceil(whole.length / 4));
  });

  it('lists shows by date then time in full, and pages them by date then id', async () => {
    const marker = `show-${unique()}`;
    const day = '2031-05-05';
    // Created in an order that is not their time order.
    for (const time of ['10:00 PM', '7:30 PM', '8:00 PM', '9:00 AM']) {
      await shows.createShow({
        title: `${marker} ${time}`,
        venue: 'V',
        location: 'Asbury Park, NJ',
        date: day,
        time,
      });
    }
    await shows.createShow({
      title: `${marker} earlier`,
      venue: 'V',
      location: 'L',
      date: '2031-05-04',
      time: '11:00 PM',
    });
    const whole = (await (await get('/api/shows')).json()) as { title: string; id: number }[];
    expect(whole.filter((s) => s.title.startsWith(marker)).map((s) => s.title)).toEqual([
      `${marker} earlier`,
      `${marker} 9:00 AM`,
      `${marker} 7:30 PM`,
      `${marker} 8:00 PM`,
      `${marker} 10:00 PM`,
    ]);
    const { seen } = await walk<{ id: number; date: string }>('/api/shows?limit=2');
    expect(seen.map((s) => s.id).sort((a, b) => a - b)).toEqual(
      whole.map((s) => s.id).sort((a, b) => a - b),
    );
    const keyset = [...seen].sort((a, b) => a.date.localeCompare(b.date) || a.id - b.id);
    expect(seen).toEqual(keyset);
  });
});

describe('the admin lists (the same helper)', () => {
  const request = (pathAndQuery: string) => new Request(new URL(pathAndQuery, ORIGIN));
  /** The admin list endpoints' answers, the guard aside. */
  const subs = (q: string) =>
    lists.apiListResponse(request(q), subscribers.subscriberList(), subscribers.toSubscriberJSON);
  const msgs = (q: string) =>
    lists.apiListResponse(request(q), messages.contactMessageList(), messages.toContactMessageJSON);

  it('subscribers and messages: every original once while more arrive', async () => {
    const marker = `adm-${unique()}`;
    let late = 0;
    for (let i = 0; i < 45; i++) {
      await subscribers.createSubscriber({ email: `${marker}-${i}@example.test` });
      await messages.createContactMessage({
        name: `${marker} ${i}`,
        email: 'a@example.test',
        subject: marker,
        message: 'Hello there',
      });
    }
    for (const [answer, mark] of [
      [subs, (r: Record<string, unknown>) => String(r.email).startsWith(marker)],
      [msgs, (r: Record<string, unknown>) => r.subject === marker],
    ] as const) {
      const whole = (await (await answer('/x')).json()) as Record<string, unknown>[];
      const originals = whole.filter(mark).map((r) => r.id);
      expect(originals).toHaveLength(45);
      const seen: Record<string, unknown>[] = [];
      let next: string | null = '/x?limit=10';
      while (next) {
        const response = await answer(next);
        seen.push(...((await response.json()) as Record<string, unknown>[]));
        next = nextOf(response);
        await subscribers.createSubscriber({ email: `${marker}-late${late}@example.test` });
        await messages.createContactMessage({
          name: `late ${late++}`,
          email: 'b@example.test',
          subject: `${marker} late`,
          message: 'Hello there',
        });
      }
      expect(seen.filter(mark).map((r) => r.id)).toEqual(originals);
    }
  });
});

describe('apiJsonArrayStream', () => {
  const request = new Request(`${ORIGIN}/api/x`);

  async function* records(n: number, failAt?: number) {
    for (let i = 0; i < n; i++) {
      if (i === failAt) throw new Error('the store went away');
      yield { i, text: 'x'.repeat(100) };
    }
  }

  it('writes the same JSON as a whole answer, in several chunks, and [] for nothing', async () => {
    const response = await api.apiJsonArrayStream(request, records(1000), (r) => r);
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    const text = await response.text();
    expect(text).toBe(
      JSON.stringify([...Array(1000).keys()].map((i) => ({ i, text: 'x'.repeat(100) }))),
    );
    expect(await (await api.apiJsonArrayStream(request, records(0), (r) => r)).text()).toBe('[]');
  });

  it('throws before the first byte (a JSON 500 from handleApi), aborts after it', async () => {
    const early = await api.handleApi(request, () =>
      api.apiJsonArrayStream(request, records(10, 0), (r) => r),
    );
    expect(early.status).toBe(500);
    expect(await early.json()).toEqual({ error: 'Internal server error' });

    const late = await api.apiJsonArrayStream(request, records(5000, 2000), (r) => r);
    expect(late.status).toBe(200);
    await expect(late.text()).rejects.toThrow();
  });

  it('closes the source when the reader goes away', async () => {
    let closed = false;
    async function* source() {
      try {
        for (let i = 0; ; i++) yield { i, pad: 'y'.repeat(1000) };
      } finally {
        closed = true;
      }
    }
    const response = await api.apiJsonArrayStream(request, source(), (r) => r);
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    expect(closed).toBe(true);
  });
});
