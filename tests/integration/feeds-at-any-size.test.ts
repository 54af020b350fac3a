import fs from 'node:fs';
import path from 'node:path';

import { XMLParser } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';

import type * as BlogModule from '~/models/blog-post.server';
import type * as ShowModule from '~/models/show.server';
import type * as TrackPodcastModule from '~/models/track-podcast.server';
import type * as TrackWritesModule from '~/models/track-writes.server';
import type * as PodcastModule from '~/podcast/podcast.server';
import type * as SitemapModule from '~/services/sitemap.server';

import { setupTestDatabase } from '../helpers/test-db';

/**
 * The feeds at any size (decision 045), on the embedded store: /podcast.xml lists every public,
 * ready episode (the whole archive) and follows each write; the sitemap turns into an index of
 * children of at most `maxUrls` URLs past that many (lowered here), every URL in exactly one
 * child; /shows.ics holds the upcoming shows and the past year's.
 */
const { uploadsDir } = setupTestDatabase();

let trackWrites: typeof TrackWritesModule;
let trackPodcast: typeof TrackPodcastModule;
let blog: typeof BlogModule;
let shows: typeof ShowModule;
let podcast: typeof PodcastModule;
let sitemap: typeof SitemapModule;

beforeAll(async () => {
  trackPodcast = await import('~/models/track-podcast.server');
  trackWrites = await import('~/models/track-writes.server');
  blog = await import('~/models/blog-post.server');
  shows = await import('~/models/show.server');
  podcast = await import('~/podcast/podcast.server');
  sitemap = await import('~/services/sitemap.server');
});

const parser = new XMLParser({
  ignoreAttributes: false,
  isArray: (name) => name === 'item' || name === 'url' || name === 'sitemap',
});

async function addMix(title: string, options: { members?: boolean; file?: boolean } = {}) {
  const file = `${title.replace(/\W+/g, '-')}.mp3`;
  if (options.file !== false) fs.writeFileSync(path.join(uploadsDir, 'audio', file), 'ID3 bytes');
  return trackWrites.createTrack({
    title,
    type: 'Mix',
    duration: '60:00',
    coverImage: '/placeholder-album.jpg',
    audioFile: `/uploads/audio/${file}`,
    ...(options.members ? { visibility: 'members' as const } : {}),
  });
}

const episodeTitles = (xml: string): string[] => {
  const doc = parser.parse(xml) as { rss: { channel: { item?: { title: string }[] } } };
  return (doc.rss.channel.item ?? []).map((i) => String(i.title));
};

describe('/podcast.xml', () => {
  it('lists every public, ready episode, newest first, and follows each write', async () => {
    const made: string[] = [];
    for (let i = 0; i < 60; i++) {
      const title = `Archive mix ${String(i).padStart(2, '0')}`;
      await addMix(title);
      made.push(title);
    }
    await addMix('Members mix', { members: true });
    await addMix('Missing file mix', { file: false });
    await trackWrites.createTrack({
      title: 'A single',
      duration: '3:00',
      coverImage: '/placeholder-album.jpg',
      audioFile: '/uploads/audio/single.mp3',
    });

    const xml = await podcast.publicPodcastXml();
    const titles = episodeTitles(xml);
    expect(titles).toEqual([...made].reverse());
    expect(titles).not.toContain('Members mix');

    // Cached until a write: the next mix is in the next build.
    expect(await podcast.publicPodcastXml()).toBe(xml);
    await addMix('Fresh mix');
    expect(episodeTitles(await podcast.publicPodcastXml())[0]).toBe('Fresh mix');
  });

  it('a members-only mix made public joins the public feed at once', async () => {
    const members = (await trackPodcast.listMixes()).find((m) => m.title === 'Members mix')!;
    await trackWrites.updateTrack(members.id, { visibility: 'public' });
    expect(episodeTitles(await podcast.publicPodcastXml())).toContain('Members mix');
  });
});

describe('/sitemap.xml', () => {
  const locsOf = (xml: string) =>
    ((parser.parse(xml) as { urlset: { url: { loc: string }[] } }).urlset.url ?? []).map(
      (u) => u.loc,
    );

  it('is one urlset below the limit, and an index of children past it', async () => {
    for (let i = 0; i < 23; i++) {
      await blog.createBlogPost({
        title: `Post ${i}`,
        slug: `sitemap-post-${i}`,
        content: 'Content of the post.',
        excerpt: 'Excerpt',
        imageUrl: '/uploads/images/x.jpg',
        category: 'NEWS',
        ...(i === 0 ? { visibility: 'members' as const } : {}),
      });
      await shows.createShow({
        title: `Show ${i}`,
        venue: 'V',
        location: 'L',
        date: `2030-01-${String(i + 1).padStart(2, '0')}`,
        time: '8:00 PM',
      });
    }
    const whole = await sitemap.sitemapFile(null, { maxUrls: 50_000 });
    const all = locsOf(whole!);
    // 7 pages + /newsletter, 22 public posts (one is members-only), 23 shows.
    expect(all).toHaveLength(8 + 22 + 23);
    expect(all.some((loc) => loc.endsWith('/blog/sitemap-post-0'))).toBe(false);
    expect(await sitemap.sitemapFile(2, { maxUrls: 50_000 })).toBeNull();

    const index = await sitemap.sitemapFile(null, { maxUrls: 10 });
    const children = (
      parser.parse(index!) as { sitemapindex: { sitemap: { loc: string }[] } }
    ).sitemapindex.sitemap.map((s) => s.loc);
    expect(children).toHaveLength(Math.ceil(all.length / 10));
    expect(children[1]).toMatch(/\/sitemap\.xml\?page=2$/);
    const fromChildren: string[] = [];
    for (let page = 1; page <= children.length; page++) {
      const locs = locsOf((await sitemap.sitemapFile(page, { maxUrls: 10 }))!);
      expect(locs.length).toBeLessThanOrEqual(10);
      fromChildren.push(...locs);
    }
    expect(fromChildren).toEqual(all);
    expect(await sitemap.sitemapFile(children.length + 1, { maxUrls: 10 })).toBeNull();
  });
});

describe('/shows.ics', () => {
  it('holds the upcoming shows and the past year, not older ones', async () => {
    const { loader } = await import('~/routes/_feeds+/shows[.]ics');
    const dayOffset = (days: number) =>
      new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const old = await shows.createShow({
      title: 'Long ago',
      venue: 'V',
      location: 'L',
      date: dayOffset(-700),
      time: '8:00 PM',
    });
    const recent = await shows.createShow({
      title: 'Last month',
      venue: 'V',
      location: 'L',
      date: dayOffset(-30),
      time: '8:00 PM',
    });
    const next = await shows.createShow({
      title: 'Next week',
      venue: 'V',
      location: 'L',
      date: dayOffset(7),
      time: '8:00 PM',
    });
    const response = (await loader({
      request: new Request('http://localhost:3000/shows.ics'),
      params: {},
      context: {},
    })) as Response;
    const text = await response.text();
    expect(text).toContain(`UID:show-${recent.id}@`);
    expect(text).toContain(`UID:show-${next.id}@`);
    expect(text).not.toContain(`UID:show-${old.id}@`);
  });
});
