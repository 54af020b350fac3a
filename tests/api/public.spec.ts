import { expect, test } from '@playwright/test';
import {
  CROSS_ORIGIN,
  SAME_ORIGIN,
  disposeRoles,
  expectEntity,
  expectError,
  expectFieldErrors,
  expectJson,
  expectList,
  files,
  roles,
  unique,
  type Roles,
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
    const all = (await expectJson(await r.anon.get('/api/blog'), 200)) as { category: string }[];
    const news = (await expectJson(await r.anon.get('/api/blog?category=NEWS'), 200)) as {
      category: string;
    }[];
    expect(news.length).toBeGreaterThan(0);
    expect(news.every((p) => p.category === 'NEWS')).toBe(true);
    expect(news.length).toBe(all.filter((p) => p.category === 'NEWS').length);
    const lower = (await expectJson(await r.anon.get('/api/blog?category=news'), 200)) as unknown[];
    expect(lower.length).toBe(news.length);
    const every = (await expectJson(await r.anon.get('/api/blog?category=ALL'), 200)) as unknown[];
    expect(every.length).toBe(all.length);
    expect(await expectJson(await r.anon.get('/api/blog?category=NOPE'), 200)).toEqual([]);
  });

  test('GET /api/blog/{slug}: one post, 404 for an unknown slug', async () => {
    const [first] = (await expectJson(await r.anon.get('/api/blog'), 200)) as { slug: string }[];
    const post = expectEntity(
      await expectJson(await r.anon.get(`/api/blog/${first!.slug}`), 200),
      'blog',
    );
    expect(post.slug).toBe(first!.slug);
    await expectError(await r.anon.get('/api/blog/no-such-post-here'), 404, 'Blog post not found');
  });
});

test.describe('POST /api/subscribe', () => {
  test('201 with the subscriber; name is optional', async () => {
    const email = `fan-${unique()}@example.com`;
    const named = expectEntity(
      await expectJson(
        await r.anon.post('/api/subscribe', {
          data: { name: 'Jo Fan', email },
          headers: SAME_ORIGIN,
        }),
        201,
      ),
      'subscriber',
    );
    expect(named).toMatchObject({ name: 'Jo Fan', email });
    const bare = `bare-${unique()}@example.com`;
    const nameless = expectEntity(
      await expectJson(
        await r.anon.post('/api/subscribe', { data: { email: bare }, headers: SAME_ORIGIN }),
        201,
      ),
      'subscriber',
    );
    expect(nameless.email).toBe(bare);
    const list = (await expectJson(await r.admin.get('/api/admin/subscribers'), 200)) as {
      email: string;
    }[];
    expect(list.map((s) => s.email)).toEqual(expect.arrayContaining([email, bare]));
  });

  test('409 for an email already subscribed (case-insensitively)', async () => {
    const email = `dup-${unique()}@example.com`;
    await expectJson(
      await r.anon.post('/api/subscribe', { data: { email }, headers: SAME_ORIGIN }),
      201,
    );
    const again = await r.anon.post('/api/subscribe', {
      data: { name: 'Again', email: email.toUpperCase() },
      headers: SAME_ORIGIN,
    });
    await expectError(again, 409, 'This email is already subscribed to our newsletter.');
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

  test('honeypot: a filled "website" gets the same 201 shape and stores nothing', async () => {
    const email = `bot-${unique()}@example.com`;
    const response = await r.anon.post('/api/subscribe', {
      data: { name: 'Bot', email, website: 'https://spam.example' },
      headers: SAME_ORIGIN,
    });
    expectEntity(await expectJson(response, 201), 'subscriber');
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
