import { execFileSync } from 'node:child_process';

import { expect, test } from '@playwright/test';
import { parseFeed } from 'podcast-partytime';
import sharp from 'sharp';

import { wavBuffer } from '../helpers/wav';
import { baseURL, expectJson, SAME_ORIGIN, unique, useRoles } from './helpers';

/**
 * The podcast feeds (decision 037): /podcast.xml read by real clients (Python's feedparser,
 * podcast-partytime), its enclosures (exact length, HEAD, Range), chapters JSON, and a member's
 * private feed with signed, expiring, revocable enclosure URLs. Every test asserts on the mixes
 * it created (other tests of this server add tracks too).
 */
test.describe.configure({ mode: 'serial' });

const r = useRoles();

type Track = {
  id: number;
  title: string;
  audioFile: string;
  audioStatus: string;
  tracklist: unknown[];
};

/** A track through the admin API, once its stream is ready (a WAV is transcoded first). */
async function createTrack(fields: Record<string, string>, seconds = 2): Promise<Track> {
  const cover = await sharp({
    create: { width: 900, height: 600, channels: 3, background: '#336699' },
  })
    .png()
    .toBuffer();
  const created = (await expectJson(
    await r.admin.post('/api/admin/tracks', {
      multipart: {
        artist: 'Feed Spec',
        coverImage: { name: 'cover.png', mimeType: 'image/png', buffer: cover },
        audioFile: {
          name: 'set.wav',
          mimeType: 'audio/wav',
          buffer: wavBuffer({ seconds, toneHz: 440 }),
        },
        ...fields,
      },
      headers: SAME_ORIGIN,
    }),
    201,
  )) as Track;
  let track = created;
  await expect
    .poll(
      async () => {
        track = (await (await r.admin.get(`/api/tracks/${created.id}`)).json()) as Track;
        return track.audioStatus;
      },
      { timeout: 90_000, intervals: [250] },
    )
    .toBe('ready');
  return track;
}

const stamp = unique();
let publicMix: Track;
let membersMix: Track;
let single: Track;

test.beforeAll(async () => {
  publicMix = await createTrack({
    title: `Harbour Set <${stamp}> & "friends"`,
    type: 'Mix',
    duration: '1:05:00',
    description: 'Recorded live at the pier.',
    tracklist: '0:00 Floorplan - Never Grow Old [M-Plant]\n1:02:30 Moodymann - Shades of <Jae>',
  });
  membersMix = await createTrack({
    title: `Members Radio ${stamp}`,
    type: 'Radio show',
    duration: '58:00',
    visibility: 'members',
  });
  single = await createTrack({ title: `Single ${stamp}`, type: 'Single' });
});

type Parsed = {
  bozo: number;
  bozo_exception: string;
  feed: Record<string, unknown>;
  entries: Record<string, unknown>[];
};

/** Python's feedparser (Debian's python3-feedparser) reading the XML. */
function feedparser(xml: string): Parsed {
  const script = `
import feedparser, json, sys
d = feedparser.parse(sys.stdin.buffer.read())
out = {"bozo": int(d.bozo), "bozo_exception": str(d.get("bozo_exception", "")),
  "feed": {k: d.feed.get(k) for k in ["title", "itunes_explicit", "author", "publisher_detail", "image", "tags", "language", "podcast_guid", "podcast_locked"]},
  "entries": [{"id": e.get("id"), "link": e.get("link"), "title": e.get("title"), "itunes_duration": e.get("itunes_duration"),
    "links": e.get("links"), "image": e.get("image"), "summary": e.get("summary")} for e in d.entries]}
print(json.dumps(out, default=str))
`;
  return JSON.parse(
    execFileSync('/usr/bin/python3', ['-c', script], { input: xml }).toString(),
  ) as Parsed;
}

/** An episode is found by its link (its GUID is stored on the track, not derived from it). */
const linkOf = (t: Track) => `${baseURL}/music/${t.id}`;
/** A GUID fixed when the track was created: no host, no id (decision 037). */
const HOST_FREE_GUID =
  /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('/podcast.xml: feedparser and podcast-partytime read it; only public mixes', async () => {
  const response = await r.anon.get('/podcast.xml');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('application/rss+xml');
  expect(response.headers()['cache-control']).toContain('s-maxage');
  const xml = await response.text();
  expect(xml).toContain('xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"');
  expect(xml).toContain('xmlns:podcast="https://podcastindex.org/namespace/1.0"');
  expect(xml).toMatch(
    /<podcast:guid>[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}<\/podcast:guid>/,
  );

  const parsed = feedparser(xml);
  expect(parsed.bozo, parsed.bozo_exception).toBe(0);
  // Apple's spec says "true"/"false"; feedparser 6 maps only yes/clean, so it reads None.
  expect(xml).toContain('<itunes:explicit>false</itunes:explicit>');
  expect(JSON.stringify(parsed.feed.publisher_detail)).toContain('@');
  expect(String(parsed.feed.author)).toBeTruthy();
  expect(JSON.stringify(parsed.feed.tags)).toContain('Music');
  expect(JSON.stringify(parsed.feed.image)).toContain('/podcast/cover.jpg');
  const links = parsed.entries.map((e) => e.link);
  expect(links).toContain(linkOf(publicMix));
  expect(links).not.toContain(linkOf(membersMix));
  expect(links).not.toContain(linkOf(single));
  const entry = parsed.entries.find((e) => e.link === linkOf(publicMix))!;
  // The episode's GUID names no host: moving the site to another domain re-lists nothing.
  expect(entry.id).toMatch(HOST_FREE_GUID);
  expect(String(entry.id)).not.toContain(new URL(baseURL).host);
  expect(xml).toContain(`<guid isPermaLink="false">${String(entry.id)}</guid>`);
  expect(entry.title).toBe(publicMix.title);
  expect(entry.itunes_duration).toBe('3900');
  // The notes are HTML: the tracklist's "<Jae>" is text in it, not a tag.
  expect(String(entry.summary)).toContain('1:02:30 Moodymann – Shades of &lt;Jae&gt;');

  const feed = parseFeed(xml)!;
  expect(feed).toBeTruthy();
  const item = feed.items.find((i) => i.link === linkOf(publicMix))!;
  expect(item.guid).toBe(entry.id);
  expect(item.duration).toBe(3900);
  expect(item.podcastChapters?.url).toBe(`${baseURL}/music/${publicMix.id}/chapters.json`);
  expect(item.podcastChapters?.type).toBe('application/json+chapters');
  expect(item.enclosure.type).toBe('audio/mpeg');
  expect(feed.guid).toMatch(/^[0-9a-f-]{36}$/);
  expect(feed.locked).toBe(false);
});

test('enclosures: the exact length, HEAD and Range with the same headers as GET', async () => {
  const feed = parseFeed(await (await r.anon.get('/podcast.xml')).text())!;
  const item = feed.items.find((i) => i.link === linkOf(publicMix))!;
  const url = item.enclosure.url;
  expect(url.startsWith(`${baseURL}/podcast/episodes/${publicMix.id}/`)).toBe(true);
  const get = await r.anon.get(url);
  expect(get.status()).toBe(200);
  const body = await get.body();
  expect(body.length).toBe(item.enclosure.length);
  const head = await r.anon.fetch(url, { method: 'HEAD' });
  expect(head.status()).toBe(200);
  for (const h of ['content-length', 'content-type', 'etag', 'accept-ranges', 'last-modified']) {
    expect(head.headers()[h], h).toBe(get.headers()[h]);
  }
  const range = await r.anon.get(url, { headers: { Range: 'bytes=100-199' } });
  expect(range.status()).toBe(206);
  expect(range.headers()['content-range']).toBe(`bytes 100-199/${body.length}`);
  expect((await range.body()).equals(body.subarray(100, 200))).toBe(true);
  const rangeHead = await r.anon.fetch(url, {
    method: 'HEAD',
    headers: { Range: 'bytes=100-199' },
  });
  expect(rangeHead.status()).toBe(206);
  expect(rangeHead.headers()['content-range']).toBe(range.headers()['content-range']);
  expect(rangeHead.headers()['content-length']).toBe('100');

  // The members-only mix's file is not an episode of the public feed, by any id.
  const membersFile = membersMix.audioFile.split('/').pop()!;
  expect((await r.anon.get(`/podcast/episodes/${membersMix.id}/${membersFile}`)).status()).toBe(
    404,
  );
  expect((await r.anon.get(`/podcast/episodes/${publicMix.id}/${membersFile}`)).status()).toBe(404);

  // Covers: square and inside Apple's 1400–3000 px.
  for (const cover of [feed.itunesImage ?? '', item.image ?? '']) {
    const img = await r.anon.get(cover);
    expect(img.status(), cover).toBe(200);
    const meta = await sharp(await img.body()).metadata();
    expect(meta.width).toBe(meta.height);
    expect(meta.width).toBeGreaterThanOrEqual(1400);
  }
});

test('chapters.json: Podcasting 2.0 chapters; 404 without a tracklist or for an unknown id', async () => {
  const response = await r.anon.get(`/music/${publicMix.id}/chapters.json`);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('application/json+chapters');
  expect(await response.json()).toEqual({
    version: '1.2.0',
    chapters: [
      { startTime: 0, title: 'Floorplan – Never Grow Old [M-Plant]' },
      { startTime: 3750, title: 'Moodymann – Shades of <Jae>' },
    ],
  });
  expect((await r.anon.get(`/music/${membersMix.id}/chapters.json`)).status()).toBe(404);
  expect((await r.anon.get('/music/99999999/chapters.json')).status()).toBe(404);
});

/** The member's new private feed URL, read from the /account answer (shown once). */
async function createPrivateFeed(): Promise<string> {
  const response = await r.user.post('/account', {
    form: { intent: 'podcast-feed-create' },
    headers: SAME_ORIGIN,
  });
  expect(response.status()).toBe(200);
  expect(response.headers()['cache-control']).toContain('no-store');
  const html = await response.text();
  const url = /value="(http[^"]*\/podcast\/private\/[^"]+\.xml)"/.exec(html)?.[1];
  expect(url, 'the feed URL is on the page').toBeTruthy();
  // Shown once: the account page does not show it again.
  const again = await (await r.user.get('/account')).text();
  expect(again).not.toContain(url!);
  expect(again).toContain('You have a private feed');
  return url!;
}

test('private feed: the members-only mix, playable without cookies; revoked → 404 and 403/404', async ({
  playwright,
}) => {
  const feedUrl = await createPrivateFeed();
  const bare = await playwright.request.newContext(); // a podcast app: no cookies at all
  try {
    const response = await bare.get(feedUrl);
    expect(response.status()).toBe(200);
    expect(response.headers()['cache-control']).toContain('no-store');
    const xml = await response.text();
    expect(feedparser(xml).bozo).toBe(0);
    const feed = parseFeed(xml)!;
    const item = feed.items.find((i) => i.link === linkOf(membersMix))!;
    expect(item, 'the members-only mix is in the private feed').toBeTruthy();
    expect(feed.items.some((i) => i.link === linkOf(publicMix))).toBe(true);
    const media = item.enclosure.url;
    expect(media).toMatch(/\/podcast\/media\/[^/]+\/\d+\/[^/]+\/\d+\/[^/]+$/);
    const get = await bare.get(media);
    expect(get.status()).toBe(200);
    expect((await get.body()).length).toBe(item.enclosure.length);
    const range = await bare.get(media, { headers: { Range: 'bytes=0-99' } });
    expect(range.status()).toBe(206);
    expect((await bare.fetch(media, { method: 'HEAD' })).status()).toBe(200);

    // The same file is not public anywhere else without a session.
    expect((await bare.get(membersMix.audioFile)).status()).toBe(401);

    // A tampered signature, another file under this signature, another expiry: refused.
    const parts = new URL(media).pathname.split('/'); // '', podcast, media, id, expiry, sig, track, file
    const sig = parts[5]!;
    const tampered = [...parts];
    tampered[5] = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    expect((await bare.get(tampered.join('/'))).status()).toBe(403);
    const otherFile = [...parts];
    otherFile[6] = String(publicMix.id);
    otherFile[7] = publicMix.audioFile.split('/').pop()!;
    expect((await bare.get(otherFile.join('/'))).status()).toBe(403);
    const later = [...parts];
    later[4] = String(Number(parts[4]) + 86_400);
    expect((await bare.get(later.join('/'))).status()).toBe(403);
    const expired = [...parts];
    expired[4] = '1000';
    expect((await bare.get(expired.join('/'))).status()).toBe(403);
    // A made-up token is not found, as a wrong one is.
    expect((await bare.get(`/podcast/private/${'x'.repeat(43)}.xml`)).status()).toBe(404);

    // Revoke: the feed and the old signed URLs stop.
    const revoke = await r.user.post('/account', {
      form: { intent: 'podcast-feed-revoke' },
      headers: SAME_ORIGIN,
      maxRedirects: 0,
    });
    expect(revoke.status()).toBe(302);
    expect((await bare.get(feedUrl)).status()).toBe(404);
    expect([403, 404]).toContain((await bare.get(media)).status());
    expect([403, 404]).toContain((await bare.fetch(media, { method: 'HEAD' })).status());
  } finally {
    await bare.dispose();
  }
});

test('regenerating revokes the old address', async ({ playwright }) => {
  const first = await createPrivateFeed();
  const second = await createPrivateFeed();
  expect(second).not.toBe(first);
  const bare = await playwright.request.newContext();
  try {
    expect((await bare.get(first)).status()).toBe(404);
    expect((await bare.get(second)).status()).toBe(200);
  } finally {
    await bare.dispose();
  }
  await r.user.post('/account', { form: { intent: 'podcast-feed-revoke' }, headers: SAME_ORIGIN });
});

test('feed downloads: counted once per client, episode and day, Range requests included', async ({
  playwright,
}) => {
  type Report = { mixes: { id: number; plays: number; downloads: number }[] };
  const downloads = async () =>
    ((await expectJson(await r.admin.get('/api/admin/stats?days=7'), 200)) as Report).mixes.find(
      (m) => m.id === publicMix.id,
    )?.downloads;
  // Earlier tests' downloads (another client) are written within FLUSH_MS (5 s) of their
  // request, later on a busy machine: the count to start from is the one that holds still
  // from one read to the next, 6 s apart.
  expect(await downloads()).toBeDefined();
  let before = -1;
  await expect
    .poll(
      async () => {
        const now = (await downloads()) ?? 0;
        const settled = now === before;
        before = now;
        return settled;
      },
      { timeout: 30_000, intervals: [6_000] },
    )
    .toBe(true);
  const feed = parseFeed(await (await r.anon.get('/podcast.xml')).text())!;
  const url = feed.items.find((i) => i.link === linkOf(publicMix))!.enclosure.url;
  const app = await playwright.request.newContext({
    extraHTTPHeaders: {
      'User-Agent': `Overcast/3.0 (+http://overcast.fm/; iOS podcast app) feed-spec-${stamp}`,
    },
  });
  try {
    await app.fetch(url, { method: 'HEAD' });
    await app.get(url, { headers: { Range: 'bytes=0-1' } });
    await app.get(url, { headers: { Range: 'bytes=2-' } });
    await app.get(url);
  } finally {
    await app.dispose();
  }
  await expect.poll(downloads, { timeout: 15_000, intervals: [500] }).toBe(before + 1);
  // The counts settle: nothing else arrives later for the same client.
  await new Promise((resolve) => setTimeout(resolve, 6_000));
  expect(await downloads()).toBe(before + 1);
});
