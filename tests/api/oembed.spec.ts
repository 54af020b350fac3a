import { extract, setProviderList } from '@extractus/oembed-extractor';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { unfurl } from 'unfurl.js';

import { wavBuffer } from '../helpers/wav';
import { baseURL, disposeRoles, type Roles, roles, SAME_ORIGIN, siteDay, unique } from './helpers';

/**
 * The oEmbed provider and the link cards (decision 038), through real consumers: unfurl.js
 * finds the endpoint by the discovery link of a track page, @extractus/oembed-extractor with
 * our endpoint as a provider asks it directly. Then the contract (sizes, 400/404/501), the
 * head of public and members-only track pages, and the trust boundary's one exception for
 * `Origin: null`. The tracks are made here, with generated media.
 */

let r: Roles | undefined;
let publicTrack: {
  id: number;
  title: string;
  artist: string;
  audioFile: string;
  createdAt: string;
};
let membersTrack: { id: number; title: string; audioFile: string };

async function create(visibility: 'public' | 'members') {
  const cover = await sharp({
    create: { width: 500, height: 500, channels: 3, background: '#7c3aed' },
  })
    .png()
    .toBuffer();
  const response = await r!.admin.post('/api/admin/tracks', {
    headers: SAME_ORIGIN,
    multipart: {
      title: unique(),
      artist: 'Oembed Tester',
      visibility,
      coverImage: { name: 'cover.png', mimeType: 'image/png', buffer: cover },
      audioFile: { name: 'silence.wav', mimeType: 'audio/wav', buffer: wavBuffer() },
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { id } = (await response.json()) as { id: number };
  // The track once its stream is made (background transcoding, decision 035).
  let track = {
    id,
    title: '',
    artist: '',
    audioFile: '',
    createdAt: '',
    audioStatus: undefined as string | undefined,
  };
  await expect
    .poll(
      async () => {
        track = (await (await r!.admin.get(`/api/tracks/${id}`)).json()) as typeof track;
        return track.audioStatus;
      },
      { timeout: 60_000 },
    )
    .toBe('ready');
  return track;
}

test.beforeAll(async () => {
  r = await roles();
  publicTrack = await create('public');
  membersTrack = await create('members');
});
test.afterAll(async () => {
  for (const t of [publicTrack, membersTrack]) {
    if (t) await r!.admin.delete(`/api/admin/tracks/${t.id}`, { headers: SAME_ORIGIN });
  }
  await disposeRoles(r);
});

const oembedUrl = (params: Record<string, string>) =>
  `/oembed?${new URLSearchParams(params).toString()}`;

test('unfurl.js finds the endpoint by discovery on a track page and gets a rich iframe', async () => {
  const result = await unfurl(`${baseURL}/music/${publicTrack.id}`, { oembed: true });
  expect(result.oEmbed?.type).toBe('rich');
  const rich = result.oEmbed as { html: string; title: string; width: number; height: number };
  expect(rich.html).toMatch(/^<iframe [^>]*src="[^"]*\/embed\/tracks\/\d+"[^>]*title="[^"]+"/);
  expect(rich.html).not.toContain('<script');
  expect(rich.title).toContain(publicTrack.title);
  expect(result.twitter_card?.card).toBe('player');
});

test('@extractus/oembed-extractor with our endpoint as a provider returns the same', async () => {
  setProviderList([
    {
      provider_name: 'Night Shore',
      provider_url: baseURL,
      endpoints: [{ schemes: [`${baseURL}/music/*`], url: `${baseURL}/oembed` }],
    },
  ]);
  // The library writes every provider endpoint as https (its list has no http providers);
  // our test server speaks http, so its documented `fetcher` argument takes the scheme back.
  const fetcher = (url: string) => fetch(url.replace(/^https:\/\/localhost:/, 'http://localhost:'));
  const data = (await extract(
    `${baseURL}/music/${publicTrack.id}`,
    { maxwidth: 480 },
    fetcher,
  )) as {
    type: string;
    html: string;
    width: number;
    version: string;
  };
  expect(data.type).toBe('rich');
  expect(data.version).toBe('1.0');
  expect(data.html).toMatch(/^<iframe /);
  expect(data.width).toBeLessThanOrEqual(480);
});

test('the contract: every field, sizes within maxwidth/maxheight, 400, 404, 501', async () => {
  const page = `${baseURL}/music/${publicTrack.id}`;
  const full = await r!.anon.get(oembedUrl({ url: page, format: 'json' }));
  expect(full.status()).toBe(200);
  expect(full.headers()['content-type']).toContain('application/json');
  const body = await full.json();
  expect(body).toMatchObject({
    type: 'rich',
    version: '1.0',
    author_name: 'Oembed Tester',
    author_url: page,
    provider_name: 'Night Shore',
    provider_url: `${baseURL}/`,
    width: 600,
    height: 120,
  });
  // The link card's JPEG (as og:image), at its size, and it is one.
  expect(body.thumbnail_url).toBe(`${page}/card.jpg`);
  expect([body.thumbnail_width, body.thumbnail_height]).toEqual([1200, 630]);
  const thumbnail = await r!.anon.get(new URL(body.thumbnail_url as string).pathname);
  expect(thumbnail.status()).toBe(200);
  expect(thumbnail.headers()['content-type']).toBe('image/jpeg');
  const picture = await sharp(await thumbnail.body()).metadata();
  expect([picture.format, picture.width, picture.height]).toEqual([
    'jpeg',
    body.thumbnail_width,
    body.thumbnail_height,
  ]);

  const small = await (
    await r!.anon.get(oembedUrl({ url: page, maxwidth: '300', maxheight: '100' }))
  ).json();
  expect(small.width).toBe(300);
  expect(small.height).toBe(100);
  expect(small.html).toContain('width="300" height="100"');

  const list = await (
    await r!.anon.get(oembedUrl({ url: `${baseURL}/embed/playlist?ids=${publicTrack.id}` }))
  ).json();
  expect(list.height).toBe(400);
  const listShort = await (
    await r!.anon.get(
      oembedUrl({ url: `${baseURL}/embed/playlist?ids=${publicTrack.id}`, maxheight: '250' }),
    )
  ).json();
  expect(listShort.height).toBeLessThanOrEqual(250);
  // The music page embeds the featured tracks (the seed features some).
  expect((await r!.anon.get(oembedUrl({ url: `${baseURL}/music` }))).status()).toBe(200);

  expect((await r!.anon.get('/oembed')).status()).toBe(400);
  expect((await r!.anon.get(oembedUrl({ url: page, format: 'xml' }))).status()).toBe(501);
  for (const url of [
    `https://evil.example/music/${publicTrack.id}`,
    `${baseURL}/music/999999`,
    `${baseURL}/about`,
    'not a url',
  ]) {
    expect((await r!.anon.get(oembedUrl({ url }))).status(), url).toBe(404);
  }
});

test('the music page names its oEmbed endpoint, which embeds the featured tracks', async () => {
  const html = await (await r!.anon.get('/music')).text();
  const head = html.slice(0, html.indexOf('</head>'));
  const link =
    /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)" title="([^"]+)"/.exec(
      head,
    );
  expect(link, 'discovery link in the head of /music').not.toBeNull();
  const href = new URL(link![1]!.replace(/&amp;/g, '&'));
  expect(href.origin).toBe(baseURL);
  expect(href.pathname).toBe('/oembed');
  expect(href.searchParams.get('url')).toBe(`${baseURL}/music`);
  expect(href.searchParams.get('format')).toBe('json');

  const answer = await r!.anon.get(`${href.pathname}${href.search}`);
  expect(answer.status()).toBe(200);
  const body = (await answer.json()) as { type: string; html: string; height: number };
  expect(body.type).toBe('rich');
  expect(body.html).toMatch(/^<iframe src="[^"]+\/embed\/playlist" /);
  expect(body.height).toBe(400);

  // A real consumer finds it by discovery too.
  const result = await unfurl(`${baseURL}/music`, { oembed: true });
  expect(result.oEmbed?.type).toBe('rich');
});

test('track pages: discovery and a player card; og:audio only for a public track', async () => {
  const head = async (id: number) => {
    const html = await (await r!.anon.get(`/music/${id}`)).text();
    return html.slice(0, html.indexOf('</head>'));
  };
  const pub = await head(publicTrack.id);
  expect(pub).toMatch(
    /<link rel="alternate" type="application\/json\+oembed" href="[^"]+\/oembed\?url=/,
  );
  expect(pub).toContain('<meta property="og:type" content="music.song"');
  expect(pub).toContain(`<meta property="og:audio" content="${baseURL}${publicTrack.audioFile}"`);
  expect(pub).toContain('<meta name="twitter:card" content="player"');
  expect(pub).toContain(
    `<meta name="twitter:player" content="${baseURL}/embed/tracks/${publicTrack.id}"`,
  );
  expect(pub).toContain(
    `<meta property="og:image" content="${baseURL}/music/${publicTrack.id}/card.jpg"`,
  );

  // Its date and its author, as link scrapers read them.
  expect(pub).toContain(`<meta property="music:release_date" content="${publicTrack.createdAt}"`);
  expect(pub).toContain('<meta name="author" content="Oembed Tester"');
  const unfurled = await unfurl(`${baseURL}/music/${publicTrack.id}`);
  expect(unfurled.author).toBe('Oembed Tester');

  const locked = await head(membersTrack.id);
  expect(locked).toContain('application/json+oembed');
  expect(locked).not.toContain('og:audio');
  expect(locked).not.toContain(membersTrack.audioFile);

  const card = await r!.anon.get(`/music/${publicTrack.id}/card.jpg`);
  expect(card.status()).toBe(200);
  const meta = await sharp(await card.body()).metadata();
  expect([meta.width, meta.height, meta.format]).toEqual([1200, 630, 'jpeg']);
});

test('a blog post is dated and signed for link scrapers', async () => {
  const slug = `card-${unique()}`;
  const cover = await sharp({
    create: { width: 800, height: 450, channels: 3, background: '#0f766e' },
  })
    .jpeg()
    .toBuffer();
  const created = await r!.admin.post('/api/admin/blog', {
    headers: SAME_ORIGIN,
    multipart: {
      title: `Card ${slug}`,
      slug,
      content: 'A post for the link card test.',
      excerpt: 'Link card.',
      category: 'NEWS',
      image: { name: 'cover.jpg', mimeType: 'image/jpeg', buffer: cover },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const post = (await created.json()) as { id: number; createdAt: string };
  try {
    const html = await (await r!.anon.get(`/blog/${slug}`)).text();
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain('<meta property="og:type" content="article"');
    expect(head).toContain(`<meta property="article:published_time" content="${post.createdAt}"`);
    expect(head).toContain('<meta property="article:author" content="Night Shore"');
    expect(head).toContain('<meta name="author" content="Night Shore"');
    const result = await unfurl(`${baseURL}/blog/${slug}`);
    // unfurl.js puts the article:* tags in `open_graph.articles[]` (its types say `article`).
    const { articles } = result.open_graph as unknown as {
      articles?: { published_time?: string; author?: string }[];
    };
    expect(articles?.[0]).toMatchObject({ published_time: post.createdAt, author: 'Night Shore' });
    expect(result.author).toBe('Night Shore');
  } finally {
    await r!.admin.delete(`/api/admin/blog/${post.id}`, { headers: SAME_ORIGIN });
  }
});

test("the footer's upcoming shows carry no date a scraper would take for the page's", async () => {
  const venue = `Footer Hall ${unique()}`;
  const created = await r!.admin.post('/api/admin/shows', {
    headers: SAME_ORIGIN,
    data: {
      title: 'Footer date test',
      venue,
      location: 'Asbury Park, NJ',
      date: siteDay(1),
      time: '9:00 PM',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const show = (await created.json()) as { id: number };
  try {
    const footer = async () => {
      const html = await (await r!.anon.get(`/music/${publicTrack.id}`)).text();
      return html.slice(html.lastIndexOf('<footer'));
    };
    // Tomorrow's show is among the next ones the footer lists (the page cache follows within
    // a second).
    await expect.poll(async () => (await footer()).includes(venue)).toBe(true);
    const text = await footer();
    expect(text).toContain('data-testid="footer-shows"');
    // Its date is text: no <time datetime>, no microdata date in the footer.
    expect(text).not.toMatch(/<time\b/);
    expect(text).not.toMatch(/itemprop="[^"]*date/i);
    expect(text).not.toMatch(/datetime=/i);
  } finally {
    await r!.admin.delete(`/api/admin/shows/${show.id}`, { headers: SAME_ORIGIN });
  }
});

test('the embed sets no cookie, even for a signed-in visitor, and names no locked audio', async () => {
  const embed = await r!.admin.get(`/embed/tracks/${membersTrack.id}`);
  expect(embed.status()).toBe(200);
  expect(embed.headers()['set-cookie']).toBeUndefined();
  expect(await embed.text()).not.toContain(membersTrack.audioFile);
});

test('Origin: null passes the trust boundary for POST /api/plays only', async () => {
  const nullOrigin = { Origin: 'null' };
  const play = await r!.anon.post('/api/plays', {
    headers: nullOrigin,
    data: { trackId: publicTrack.id },
  });
  expect(play.status()).toBe(204);
  expect(play.headers()['access-control-allow-origin']).toBe('*');
  const preflight = await r!.anon.fetch('/api/plays', {
    method: 'OPTIONS',
    headers: { ...nullOrigin, 'Access-Control-Request-Method': 'POST' },
  });
  expect(preflight.status()).toBe(204);
  expect(preflight.headers()['access-control-allow-headers']).toContain('Content-Type');
  for (const [method, path] of [
    ['POST', '/api/subscribe'],
    ['POST', '/api/contact'],
    ['POST', '/api/favorites/1'],
    ['POST', '/api/login'],
    ['PUT', '/api/plays'],
    ['POST', '/auth'],
  ] as const) {
    const refused = await r!.anon.fetch(path, { method, headers: nullOrigin, data: {} });
    expect(refused.status(), `${method} ${path}`).toBe(403);
  }
});
