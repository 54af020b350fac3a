import { expect, test } from '@playwright/test';

import {
  CROSS_ORIGIN,
  disposeRoles,
  expectEntity,
  expectError,
  expectFieldErrors,
  expectJson,
  expectList,
  files,
  type Roles,
  roles,
  SAME_ORIGIN,
  unique,
} from './helpers';

let r: Roles;
test.beforeAll(async () => {
  r = await roles();
});
test.afterAll(async () => {
  await disposeRoles(r);
});

const THEME_KEYS = [
  'primary',
  'variant',
  'appearance',
  'radius',
  'headerFont',
  'bodyFont',
  'heroTitle',
  'heroText',
  'footerText',
  'weeklyRotation',
];

test('GET /api/theme answers the theme settings to anyone', async () => {
  const theme = (await expectJson(await r.anon.get('/api/theme'), 200)) as Record<string, unknown>;
  expect(Object.keys(theme).sort()).toEqual([...THEME_KEYS].sort());
  expect(typeof theme.radius).toBe('number');
  await expectError(await r.anon.post('/api/theme', { data: {}, headers: SAME_ORIGIN }), 405);
});

test('pages link the theme as /theme.css?v=<hash>: cached a year at that version, revalidated otherwise', async () => {
  const html = await (await r.anon.get('/')).text();
  const href = html.match(/<link rel="stylesheet" href="(\/theme\.css\?v=[\w-]+)"/)?.[1];
  expect(href, 'the page links the theme stylesheet').toBeTruthy();
  // Neither the head nor the loader data carries the theme's CSS any more.
  expect(html).not.toContain('@font-face');
  expect(html).not.toContain('--primary:');

  const current = await r.anon.get(href!);
  expect(current.status()).toBe(200);
  expect(current.headers()['content-type']).toBe('text/css; charset=utf-8');
  expect(current.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  const css = await current.text();
  expect(css).toMatch(/@font-face\{font-family:/);
  expect(css).toMatch(/:root\{[^}]*--primary:/);

  // An old version (a page cached before a theme change) gets today's sheet, not for a year.
  const stale = await r.anon.get('/theme.css?v=old');
  expect(stale.status()).toBe(200);
  expect(stale.headers()['cache-control']).toBe('public, max-age=0, must-revalidate');
  expect(await stale.text()).toBe(css);
  const etag = current.headers()['etag']!;
  const revalidated = await r.anon.get('/theme.css', { headers: { 'If-None-Match': etag } });
  expect(revalidated.status()).toBe(304);
});

test('GET /api/gallery: images newest first', async () => {
  const images = expectList(await expectJson(await r.anon.get('/api/gallery'), 200), 'gallery');
  expect(images.length).toBeGreaterThan(0);
  const times = images.map((i) => Date.parse(String(i.createdAt)));
  expect([...times].sort((a, b) => b - a)).toEqual(times);
});

test('GET /api/shows: ascending by date, then time', async () => {
  const shows = expectList(await expectJson(await r.anon.get('/api/shows'), 200), 'show');
  expect(shows.length).toBeGreaterThan(1);
  const dates = shows.map((s) => String(s.date));
  expect([...dates].sort()).toEqual(dates);
  for (const s of shows) expect(s.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
});

test('GET /api/shows orders two shows on the same day by time (8:00 PM after 7:30 PM)', async () => {
  const date = '2031-05-17';
  const make = (title: string, time: string) =>
    r.admin.post('/api/admin/shows', {
      data: { title, venue: 'The Stone Pony', location: 'Asbury Park, NJ', date, time },
      headers: SAME_ORIGIN,
    });
  const late = (await expectJson(await make(`Late ${unique()}`, '8:00 PM'), 201)) as { id: number };
  const early = (await expectJson(await make(`Early ${unique()}`, '7:30 PM'), 201)) as {
    id: number;
  };
  const shows = (await expectJson(await r.anon.get('/api/shows'), 200)) as { id: number }[];
  const ids = shows.map((s) => s.id);
  expect(ids.indexOf(early.id)).toBeLessThan(ids.indexOf(late.id));
  for (const id of [late.id, early.id]) {
    expect(
      (await r.admin.delete(`/api/admin/shows/${id}`, { headers: SAME_ORIGIN })).status(),
    ).toBe(204);
  }
});

test.describe('GET /api/blog', () => {
  test('every post, newest first', async () => {
    const posts = expectList(await expectJson(await r.anon.get('/api/blog'), 200), 'blog');
    expect(posts.length).toBeGreaterThan(0);
    const times = posts.map((p) => Date.parse(String(p.createdAt)));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  test('?category= filters (case-insensitively); ALL and empty mean every post', async () => {
    // Other api tests create and delete posts while this one reads: it asserts on two posts
    // of its own, and compares the lists only on the posts that were there, with the same
    // category, both before and after every filtered read.
    const id = unique();
    const make = async (category: string) =>
      (await expectJson(
        await r.admin.post('/api/admin/blog', {
          multipart: {
            title: `Filter ${category} ${id}`,
            slug: `filter-${category.toLowerCase()}-${id}`,
            content: 'A post for the category filter test.',
            excerpt: 'Category filter.',
            category,
            image: files.cover(),
          },
          headers: SAME_ORIGIN,
        }),
        201,
      )) as { id: number };
    const mine = { news: await make('NEWS'), events: await make('EVENTS') };
    type Post = { id: number; category: string };
    const read = async (query: string) =>
      (await expectJson(await r.anon.get(`/api/blog${query}`), 200)) as Post[];
    try {
      const before = await read('');
      const news = await read('?category=NEWS');
      const lower = await read('?category=news');
      const every = await read('?category=ALL');
      const empty = await read('?category=');
      const after = await read('');
      const categoryAfter = new Map(after.map((p) => [p.id, p.category]));
      const stable = new Map(
        before.filter((p) => categoryAfter.get(p.id) === p.category).map((p) => [p.id, p]),
      );
      const stableIds = (list: Post[]) => list.map((p) => p.id).filter((i) => stable.has(i));
      const stableNews = [...stable.values()].filter((p) => p.category === 'NEWS').map((p) => p.id);

      expect(news.every((p) => p.category === 'NEWS')).toBe(true);
      expect(news.map((p) => p.id)).toContain(mine.news.id);
      expect(news.map((p) => p.id)).not.toContain(mine.events.id);
      expect(stableIds(news)).toEqual(stableNews);
      expect(lower.every((p) => p.category === 'NEWS')).toBe(true);
      expect(stableIds(lower)).toEqual(stableNews);
      for (const all of [every, empty]) {
        expect(all.map((p) => p.id)).toEqual(
          expect.arrayContaining([mine.news.id, mine.events.id]),
        );
        expect(stableIds(all)).toEqual([...stable.keys()]);
      }
      expect(await expectJson(await r.anon.get('/api/blog?category=NOPE'), 200)).toEqual([]);
    } finally {
      for (const post of [mine.news, mine.events])
        await r.admin.delete(`/api/admin/blog/${post.id}`, { headers: SAME_ORIGIN });
    }
  });

  test('GET /api/blog/{slug}: one post, 404 for an unknown slug', async () => {
    // A post of its own: the newest post of the list may be another test's, deleted meanwhile.
    const slug = `by-slug-${unique()}`;
    const created = (await expectJson(
      await r.admin.post('/api/admin/blog', {
        multipart: {
          title: `By slug ${slug}`,
          slug,
          content: 'Read back by its slug.',
          excerpt: 'By slug.',
          category: 'REVIEWS',
          image: files.cover(),
        },
        headers: SAME_ORIGIN,
      }),
      201,
    )) as { id: number };
    const listed = (await expectJson(await r.anon.get('/api/blog'), 200)) as { slug: string }[];
    expect(listed.map((p) => p.slug)).toContain(slug);
    const post = expectEntity(await expectJson(await r.anon.get(`/api/blog/${slug}`), 200), 'blog');
    expect(post).toMatchObject({ id: created.id, slug });
    await expectError(await r.anon.get('/api/blog/no-such-post-here'), 404, 'Blog post not found');
    await r.admin.delete(`/api/admin/blog/${created.id}`, { headers: SAME_ORIGIN });
  });
});

test.describe('POST /api/subscribe', () => {
  const SUBSCRIBED = {
    status: 'subscribed',
    message: 'You have been successfully subscribed to our newsletter.',
  };

  test('201 { status, message }; name is optional; nothing stored comes back', async () => {
    const email = `fan-${unique()}@example.com`;
    expect(
      await expectJson(
        await r.anon.post('/api/subscribe', {
          data: { name: 'Jo Fan', email },
          headers: SAME_ORIGIN,
        }),
        201,
      ),
    ).toEqual(SUBSCRIBED);
    const bare = `bare-${unique()}@example.com`;
    expect(
      await expectJson(
        await r.anon.post('/api/subscribe', { data: { email: bare }, headers: SAME_ORIGIN }),
        201,
      ),
    ).toEqual(SUBSCRIBED);
    const list = (await expectJson(await r.admin.get('/api/admin/subscribers'), 200)) as {
      name: string;
      email: string;
      status: string;
    }[];
    expect(list.find((s) => s.email === email)).toMatchObject({ name: 'Jo Fan', status: 'active' });
    expect(list.find((s) => s.email === bare)).toMatchObject({
      name: bare.split('@')[0],
      status: 'active',
    });
  });

  test('an address already on the list gets the same answer as a new one (decision 029)', async () => {
    const email = `dup-${unique()}@example.com`;
    const first = await r.anon.post('/api/subscribe', {
      data: { name: 'First', email },
      headers: SAME_ORIGIN,
    });
    const again = await r.anon.post('/api/subscribe', {
      data: { name: 'Again', email: email.toUpperCase() },
      headers: SAME_ORIGIN,
    });
    expect(again.status()).toBe(first.status());
    expect(await expectJson(again, 201)).toEqual(await expectJson(first, 201));
    const list = (await expectJson(await r.admin.get('/api/admin/subscribers'), 200)) as {
      name: string;
      email: string;
    }[];
    // One entry, its name unchanged by the second sign-up.
    expect(list.filter((s) => s.email.toLowerCase() === email)).toMatchObject([{ name: 'First' }]);
  });

  test('400 "Please enter a valid email address." for a bad or missing email', async () => {
    await expectFieldErrors(
      await r.anon.post('/api/subscribe', {
        data: { name: 'X', email: 'not-an-email' },
        headers: SAME_ORIGIN,
      }),
      { email: 'Please enter a valid email address.' },
    );
    const missing = await expectFieldErrors(
      await r.anon.post('/api/subscribe', { data: { name: 'X' }, headers: SAME_ORIGIN }),
      { email: 'Please enter a valid email address.' },
    );
    expect(missing.error).toBe('Please enter a valid email address.');
  });

  test('400 for a name over 100 characters', async () => {
    await expectFieldErrors(
      await r.anon.post('/api/subscribe', {
        data: { name: 'n'.repeat(101), email: `long-${unique()}@example.com` },
        headers: SAME_ORIGIN,
      }),
      { name: /at most 100/ },
    );
  });

  test('honeypot: a filled "website" gets the same 201 answer and stores nothing', async () => {
    const email = `bot-${unique()}@example.com`;
    const response = await r.anon.post('/api/subscribe', {
      data: { name: 'Bot', email, website: 'https://spam.example' },
      headers: SAME_ORIGIN,
    });
    expect(await expectJson(response, 201)).toEqual(SUBSCRIBED);
    const list = (await expectJson(await r.admin.get('/api/admin/subscribers'), 200)) as {
      email: string;
    }[];
    expect(list.map((s) => s.email)).not.toContain(email);
    // …so a person can still subscribe with that address.
    await expectJson(
      await r.anon.post('/api/subscribe', { data: { email }, headers: SAME_ORIGIN }),
      201,
    );
  });

  test('malformed JSON 400, cross-site 403, GET 405', async () => {
    await expectError(
      await r.anon.post('/api/subscribe', {
        headers: { ...SAME_ORIGIN, 'Content-Type': 'application/json' },
        data: Buffer.from('{"email":'),
      }),
      400,
      'Malformed JSON body',
    );
    await expectError(
      await r.anon.post('/api/subscribe', {
        data: { email: `x-${unique()}@example.com` },
        headers: CROSS_ORIGIN,
      }),
      403,
    );
    await expectError(await r.anon.get('/api/subscribe'), 405);
  });
});

test.describe('POST /api/contact', () => {
  const valid = () => ({
    name: 'Sam Booker',
    email: `booker-${unique()}@example.com`,
    subject: 'Booking Inquiry',
    message: 'We would love to book you for a show this summer.',
  });

  test('201 with the stored message', async () => {
    const input = valid();
    const message = expectEntity(
      await expectJson(
        await r.anon.post('/api/contact', { data: input, headers: SAME_ORIGIN }),
        201,
      ),
      'message',
    );
    expect(message).toMatchObject(input);
    const list = (await expectJson(await r.admin.get('/api/admin/messages'), 200)) as {
      id: number;
    }[];
    expect(list.map((m) => m.id)).toContain(message.id);
  });

  test('400 with a message per invalid field', async () => {
    const response = await r.anon.post('/api/contact', {
      data: { name: ' ', email: 'nope', subject: 'Free Beer', message: 'short' },
      headers: SAME_ORIGIN,
    });
    await expectFieldErrors(response, {
      name: 'Name is required',
      email: 'Invalid email',
      subject: 'Please choose a subject',
      message: 'Message must be at least 10 characters',
    });
  });

  test('400 for missing fields and for a message over 5000 characters', async () => {
    await expectFieldErrors(await r.anon.post('/api/contact', { data: {}, headers: SAME_ORIGIN }), {
      name: null,
      email: null,
      subject: null,
      message: null,
    });
    await expectFieldErrors(
      await r.anon.post('/api/contact', {
        data: { ...valid(), message: 'm'.repeat(5001) },
        headers: SAME_ORIGIN,
      }),
      { message: /at most 5000/ },
    );
  });

  test('every subject of the form is accepted', async () => {
    for (const subject of [
      'Booking Inquiry',
      'Media Request',
      'Collaboration',
      'General Question',
    ]) {
      await expectJson(
        await r.anon.post('/api/contact', { data: { ...valid(), subject }, headers: SAME_ORIGIN }),
        201,
      );
    }
  });

  test('honeypot: same 201 shape, nothing stored', async () => {
    const input = { ...valid(), website: 'http://spam.example' };
    expectEntity(
      await expectJson(
        await r.anon.post('/api/contact', { data: input, headers: SAME_ORIGIN }),
        201,
      ),
      'message',
    );
    const list = (await expectJson(await r.admin.get('/api/admin/messages'), 200)) as {
      email: string;
    }[];
    expect(list.map((m) => m.email)).not.toContain(input.email);
  });

  test('malformed JSON 400, oversized 413, multipart with a file 400', async () => {
    await expectError(
      await r.anon.post('/api/contact', {
        headers: { ...SAME_ORIGIN, 'Content-Type': 'application/json' },
        data: Buffer.from('not json'),
      }),
      400,
    );
    await expectError(
      await r.anon.post('/api/contact', {
        data: { ...valid(), message: 'x'.repeat(120 * 1024) },
        headers: SAME_ORIGIN,
      }),
      413,
    );
    await expectFieldErrors(
      await r.anon.post('/api/contact', {
        multipart: { ...valid(), message: files.cover() },
        headers: SAME_ORIGIN,
      }),
      { message: null },
    );
  });
});

test('a method a resource route does not take is 405 "Method Not Allowed", never a server error (issue 38)', async () => {
  // /uploads is answered before Remix (decision 050), with the same 405.
  const paths = ['/sitemap.xml', '/podcast.xml', '/healthz', '/robots.txt', '/shows.ics'];
  for (const path of [...paths, '/uploads/images/none.png']) {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const response = await r.anon.fetch(path, { method, headers: SAME_ORIGIN, data: 'x=1' });
      expect(response.status(), `${method} ${path}`).toBe(405);
      expect(response.headers()['allow']).toBe('GET, HEAD');
      const body = await response.text();
      expect(body).toContain('Method Not Allowed');
      expect(body).not.toContain('Unexpected Server Error');
    }
  }
  // Under /api the answer is JSON, as every /api error is.
  await expectError(
    await r.anon.post('/api/tracks', { headers: SAME_ORIGIN, data: {} }),
    405,
    'Method Not Allowed',
  );
});
