import type { APIRequestContext } from '@playwright/test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import ical from 'node-ical';

import { expect, test } from './fixtures';

/**
 * Discovery: JSON-LD, canonical/Open Graph tags, sitemap, robots, RSS and iCalendar
 * against the seeded production server, parsed with real parsers; plus the caching rules
 * (public for anonymous visitors, private with a session, an admin change visible at once).
 * Everything goes through HTTP, so it runs once (JavaScript project only).
 */
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'HTTP-only checks: one project is enough');

type Ld = Record<string, unknown> & { '@type': string };

async function html(request: APIRequestContext, path: string): Promise<string> {
  const response = await request.get(path);
  expect(response.status(), path).toBe(200);
  return response.text();
}

function jsonLd(page: string): Ld[] {
  const blocks = [...page.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)];
  return blocks.map((m) => JSON.parse(m[1]!) as Ld);
}

const attr = (page: string, pattern: RegExp) => pattern.exec(page)?.[1];

async function list<T extends { id: number }>(request: APIRequestContext, path: string) {
  const response = await request.get(path);
  expect(response.status(), path).toBe(200);
  return (await response.json()) as T[];
}

/**
 * The items of `before` still in `after`, unchanged: other tests create, edit and delete
 * posts and shows while a test reads a feed, so a feed is compared with the items that
 * existed, as they were, on both sides of its read.
 */
function unchangedIn<T extends { id: number }>(before: T[], after: T[]): T[] {
  const now = new Map(after.map((x) => [x.id, JSON.stringify(x)]));
  return before.filter((x) => now.get(x.id) === JSON.stringify(x));
}

test('each public page carries title, description, canonical, Open Graph and the right JSON-LD', async ({
  request,
  baseURL,
}) => {
  const posts = await list<{ id: number; slug: string; title: string }>(request, '/api/blog');
  // The oldest post is seeded: the newest may be another test's, deleted meanwhile.
  const post = posts.at(-1)!;
  const expectations: [string, string][] = [
    ['/', 'MusicGroup'],
    ['/about', 'MusicGroup'],
    ['/music', 'MusicRecording'],
    ['/blog', 'BlogPosting'],
    [`/blog/${post.slug}`, 'BlogPosting'],
    ['/shows', 'MusicEvent'],
  ];
  for (const [path, type] of expectations) {
    const page = await html(request, path);
    const lds = jsonLd(page);
    expect(
      lds.map((l) => l['@type']),
      path,
    ).toContain(type);
    for (const ld of lds) expect(ld['@context'], path).toBe('https://schema.org');
    expect(attr(page, /<link rel="canonical" href="([^"]+)"/), path).toBe(`${baseURL}${path}`);
    expect(attr(page, /<meta name="description" content="([^"]+)"/), path).toBeTruthy();
    expect(attr(page, /<meta property="og:title" content="([^"]+)"/), path).toBeTruthy();
    expect(attr(page, /<meta property="og:image" content="([^"]+)"/), path).toMatch(/^https?:\/\//);
    expect(attr(page, /<meta name="twitter:card" content="([^"]+)"/), path).toBe(
      'summary_large_image',
    );
    expect(page, path).toContain('type="application/rss+xml"');
  }

  const postPage = await html(request, `/blog/${post.slug}`);
  const posting = jsonLd(postPage).find((l) => l['@type'] === 'BlogPosting')!;
  expect(posting.headline).toBe(post.title);

  const events = jsonLd(await html(request, '/shows')).filter((l) => l['@type'] === 'MusicEvent');
  expect(events.length).toBeGreaterThan(0);
  for (const event of events) {
    expect(event.eventStatus).toBe('https://schema.org/EventScheduled');
    expect(event.location).toMatchObject({
      '@type': 'Place',
      address: { '@type': 'PostalAddress' },
    });
    expect(String(event.startDate)).toMatch(/^\d{4}-\d{2}-\d{2}/);
  }
});

test('sitemap.xml and robots.txt', async ({ request, baseURL }) => {
  const postsBefore = await list<{ id: number; slug: string }>(request, '/api/blog');
  const showsBefore = await list<{ id: number }>(request, '/api/shows');
  const response = await request.get('/sitemap.xml');
  expect(response.headers()['content-type']).toContain('xml');
  const xml = await response.text();
  expect(XMLValidator.validate(xml)).toBe(true);
  const doc = new XMLParser().parse(xml) as { urlset: { url: { loc: string }[] } };
  const locs = doc.urlset.url.map((u) => u.loc);
  for (const path of ['/', '/music', '/gallery', '/blog', '/shows', '/about', '/contact']) {
    expect(locs).toContain(`${baseURL}${path}`);
  }
  const posts = unchangedIn(
    postsBefore,
    await list<{ id: number; slug: string }>(request, '/api/blog'),
  );
  const shows = unchangedIn(showsBefore, await list<{ id: number }>(request, '/api/shows'));
  expect(posts.length).toBeGreaterThan(0);
  expect(shows.length).toBeGreaterThan(0);
  for (const p of posts) expect(locs).toContain(`${baseURL}/blog/${p.slug}`);
  for (const s of shows) expect(locs).toContain(`${baseURL}/shows#show-${s.id}`);

  const robots = await (await request.get('/robots.txt')).text();
  expect(robots).toMatch(/^Disallow: \/admin$/m);
  expect(robots).toMatch(/^Disallow: \/api$/m);
  expect(robots).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
});

test('the blog RSS feed parses and lists the posts', async ({ request, baseURL }) => {
  const before = await list<{ id: number; slug: string }>(request, '/api/blog');
  const response = await request.get('/blog/rss.xml');
  expect(response.headers()['content-type']).toContain('application/rss+xml');
  const xml = await response.text();
  expect(XMLValidator.validate(xml)).toBe(true);
  const doc = new XMLParser().parse(xml) as {
    rss: { channel: { item: { title: string; link: string }[] | { title: string; link: string } } };
  };
  const items = [doc.rss.channel.item].flat();
  // The five newest posts that were there before and after the feed was read.
  const posts = unchangedIn(before, await list<{ id: number; slug: string }>(request, '/api/blog'));
  expect(posts.length).toBeGreaterThan(0);
  for (const p of posts.slice(0, 5)) {
    expect(items.map((i) => i.link)).toContain(`${baseURL}/blog/${p.slug}`);
  }
});

test('the shows calendar and the per-show download parse as iCalendar', async ({ request }) => {
  const before = await list<{ id: number; title: string; date: string }>(request, '/api/shows');
  const response = await request.get('/shows.ics');
  expect(response.headers()['content-type']).toContain('text/calendar');
  const text = await response.text();
  expect(text.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
  const events = Object.values(ical.sync.parseICS(text)).filter(
    (c): c is ical.VEvent => c?.type === 'VEVENT',
  );
  const uids = events.map((e) => e.uid);
  // The calendar holds the upcoming shows and those of the past year (decision 045).
  const yearAgo = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
  const shows = unchangedIn(
    before,
    await list<{ id: number; title: string; date: string }>(request, '/api/shows'),
  ).filter((s) => s.date >= yearAgo);
  expect(shows.length).toBeGreaterThan(0);
  for (const s of shows) expect(uids.some((u) => u.startsWith(`show-${s.id}@`))).toBe(true);

  // The show with the smallest id is seeded: the others may be another test's, deleted meanwhile.
  const [first] = [...shows].sort((a, b) => a.id - b.id);
  const one = await request.get(`/shows/${first!.id}.ics`);
  expect(one.status()).toBe(200);
  expect(one.headers()['content-disposition']).toMatch(/^attachment; filename=".+\.ics"$/);
  const single = Object.values(ical.sync.parseICS(await one.text())).filter(
    (c): c is ical.VEvent => c?.type === 'VEVENT',
  );
  expect(single).toHaveLength(1);
  expect(String(single[0]!.summary)).toContain(first!.title);
  expect((await request.get('/shows/999999.ics')).status()).toBe(404);
});

test('caching: public for anonymous visitors, private with a session; an admin change shows at once', async ({
  request,
  adminPage,
}) => {
  const anonymous = await request.get('/shows');
  expect(anonymous.headers()['cache-control']).toBe(
    'public, max-age=0, s-maxage=30, stale-while-revalidate=60',
  );
  expect(anonymous.headers()['vary']).toMatch(/Cookie/i);
  const admin = await adminPage.request.get('/shows');
  expect(admin.headers()['cache-control']).toBe('private, no-store');

  // Prime every cache, then change a show as the admin: the very next anonymous view shows it.
  const title = `Cache check ${Date.now()}`;
  const created = await adminPage.request.post('/api/admin/shows', {
    data: {
      title,
      venue: 'The Stone Pony',
      location: 'Asbury Park, NJ',
      date: '2099-01-01',
      time: '8:00 PM',
    },
  });
  expect(created.status()).toBe(201);
  const show = (await created.json()) as { id: number };
  expect(await html(request, '/shows')).toContain(title);
  expect(await (await request.get('/sitemap.xml')).text()).toContain(`#show-${show.id}`);

  const renamed = `${title} (moved)`;
  const updated = await adminPage.request.put(`/api/admin/shows/${show.id}`, {
    data: {
      title: renamed,
      venue: 'The Saint',
      location: 'Asbury Park, NJ',
      date: '2099-01-01',
      time: '9:00 PM',
    },
  });
  expect(updated.status()).toBe(200);
  const after = await html(request, '/shows');
  expect(after).toContain(renamed);
  expect(after).toContain('The Saint');
  expect(await (await request.get('/shows.ics')).text()).toContain('The Saint');

  expect((await adminPage.request.delete(`/api/admin/shows/${show.id}`)).ok()).toBe(true);
  expect(await html(request, '/shows')).not.toContain(renamed);
});
