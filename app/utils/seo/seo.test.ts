import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

import { jsonForScript } from '~/utils/html';

import {
  adminTitle,
  blogPostingLd,
  isoDuration,
  JsonLd,
  musicEventLd,
  musicGroupLd,
  musicRecordingLd,
  pageTitle,
  seoMeta,
  seoSite,
} from './seo';

const site = { origin: 'https://nightshore.example', siteName: 'Night Shore' };

describe('seoMeta', () => {
  it('returns title, description, canonical, Open Graph and Twitter tags with absolute URLs', () => {
    const tags = seoMeta({
      ...site,
      title: 'Music',
      description: 'All   the tracks.',
      url: '/music?q=x#top',
      image: '/uploads/images/cover.jpg',
      type: 'music.playlist',
      jsonLd: { '@type': 'Thing' },
    });
    expect(tags).toContainEqual({ title: 'Music — Night Shore' });
    expect(tags).toContainEqual({ name: 'description', content: 'All the tracks.' });
    expect(tags).toContainEqual({
      tagName: 'link',
      rel: 'canonical',
      href: 'https://nightshore.example/music',
    });
    expect(tags).toContainEqual({
      property: 'og:url',
      content: 'https://nightshore.example/music',
    });
    expect(tags).toContainEqual({ property: 'og:type', content: 'music.playlist' });
    expect(tags).toContainEqual({
      property: 'og:image',
      content: 'https://nightshore.example/uploads/images/cover.jpg',
    });
    expect(tags).toContainEqual({ name: 'twitter:card', content: 'summary_large_image' });
    expect(tags).toContainEqual({ 'script:ld+json': { '@type': 'Thing' } });
  });

  it('dates and signs a song and an article as link scrapers read them', () => {
    const when = '2026-05-01T20:00:00.000Z';
    const dated = (type: 'music.song' | 'article', url: string, author: string) =>
      seoMeta({ ...site, title: 'T', description: 'd', url, type, published: when, author });
    const song = dated('music.song', '/music/3', 'Marina Vale');
    expect(song).toContainEqual({ property: 'music:release_date', content: when });
    expect(song).toContainEqual({ name: 'author', content: 'Marina Vale' });
    expect(song.some((t) => 'property' in t && t.property === 'article:published_time')).toBe(
      false,
    );
    const post = dated('article', '/blog/news', 'Night Shore');
    expect(post).toContainEqual({ property: 'article:published_time', content: when });
    expect(post).toContainEqual({ property: 'article:author', content: 'Night Shore' });
    expect(post).toContainEqual({ name: 'author', content: 'Night Shore' });
    expect(post.some((t) => 'property' in t && t.property === 'music:release_date')).toBe(false);
  });

  it('drops a trailing slash from the canonical URL', () => {
    const tags = seoMeta({ ...site, title: 'About', description: 'd', url: '/about/' });
    expect(tags).toContainEqual({
      tagName: 'link',
      rel: 'canonical',
      href: 'https://nightshore.example/about',
    });
  });

  it('uses the site name alone on home and a default image', () => {
    const tags = seoMeta({ ...site, title: 'Night Shore', description: 'd', url: '/' });
    expect(tags).toContainEqual({ title: 'Night Shore' });
    expect(tags).toContainEqual({
      property: 'og:image',
      content: 'https://nightshore.example/og-default.jpg',
    });
  });

  it('reads the origin and site name from the root match', () => {
    expect(
      seoSite([
        { id: 'root', data: { site: { siteUrl: 'http://localhost:3000/', siteName: 'NS' } } },
      ]),
    ).toEqual({ origin: 'http://localhost:3000', siteName: 'NS' });
    expect(seoSite(undefined)).toEqual({ origin: '', siteName: 'Night Shore' });
  });

  it("titles admin pages with the root match's site name", () => {
    const matches = [{ id: 'root', data: { site: { siteName: 'NS' } } }];
    expect(adminTitle(matches, 'Tracks')).toEqual([{ title: 'Tracks | Admin | NS' }]);
    expect(adminTitle(matches)).toEqual([{ title: 'Admin | NS' }]);
    expect(adminTitle(undefined, 'Tracks')).toEqual([{ title: 'Tracks | Admin | Night Shore' }]);
  });

  it("titles other pages '{page} — {site name}' with the root match's site name", () => {
    const matches = [{ id: 'root', data: { site: { siteName: 'NS' } } }];
    expect(pageTitle(matches, 'Account')).toEqual({ title: 'Account — NS' });
    expect(pageTitle(undefined, 'Account')).toEqual({ title: 'Account — Night Shore' });
  });
});

describe('JSON-LD', () => {
  it('builds MusicGroup, MusicRecording, BlogPosting and MusicEvent', () => {
    const group = musicGroupLd({ ...site, sameAs: ['https://x.com/ns', ''] });
    expect(group).toMatchObject({
      '@type': 'MusicGroup',
      name: 'Night Shore',
      sameAs: ['https://x.com/ns'],
    });

    const track = musicRecordingLd(
      {
        id: 3,
        title: 'Neon',
        artist: 'Night Shore',
        album: 'Boardwalk',
        duration: '3:45',
        coverImage: '/uploads/images/c.jpg',
        audioFile: '/uploads/audio/n.mp3',
        createdAt: '2025-01-01T00:00:00.000Z',
      },
      site,
    );
    expect(track).toMatchObject({
      '@type': 'MusicRecording',
      duration: 'PT3M45S',
      inAlbum: { '@type': 'MusicAlbum', name: 'Boardwalk' },
      audio: { contentUrl: 'https://nightshore.example/uploads/audio/n.mp3' },
      url: 'https://nightshore.example/music/3',
    });
    // A long set: its whole seconds, in ISO 8601.
    expect(
      musicRecordingLd(
        {
          id: 4,
          title: 'Radio 01',
          artist: 'Night Shore',
          album: null,
          duration: '1:02:30',
          durationSeconds: 3750,
          coverImage: '/c.jpg',
          createdAt: '2025-01-01T00:00:00.000Z',
        },
        site,
      ),
    ).toMatchObject({ duration: 'PT1H2M30S', url: 'https://nightshore.example/music/4' });

    const post = blogPostingLd(
      {
        title: 'T',
        slug: 'the-post',
        excerpt: 'E',
        imageUrl: '/i.jpg',
        category: 'NEWS',
        visibility: 'public',
        publicAt: null,
        createdAt: '2025-01-01T00:00:00.000Z',
      },
      site,
    );
    expect(post).toMatchObject({
      '@type': 'BlogPosting',
      headline: 'T',
      url: 'https://nightshore.example/blog/the-post',
    });

    const event = musicEventLd(
      {
        id: 4,
        title: 'Hometown',
        venue: 'Wavelength',
        location: 'Asbury Park, NJ',
        date: '2025-07-04',
        time: '8:00 PM',
        ticketUrl: 'https://t.example/x',
        description: null,
      },
      site,
    );
    expect(event).toMatchObject({
      '@type': 'MusicEvent',
      startDate: '2025-07-04T20:00:00-04:00',
      eventStatus: 'https://schema.org/EventScheduled',
      location: {
        '@type': 'Place',
        name: 'Wavelength',
        address: { '@type': 'PostalAddress', addressLocality: 'Asbury Park', addressRegion: 'NJ' },
      },
      offers: { '@type': 'Offer', url: 'https://t.example/x' },
    });
    expect(
      musicEventLd(
        {
          ...event,
          id: 5,
          date: '2025-07-04',
          time: '8pm',
          ticketUrl: null,
          description: null,
          title: 'x',
          venue: 'v',
          location: 'l',
        },
        site,
      ),
    ).not.toHaveProperty('offers');
  });

  it('formats ISO durations', () => {
    expect(isoDuration('1:02:03')).toBe('PT1H2M3S');
    expect(isoDuration('nope')).toBeUndefined();
  });

  it('JsonLd escapes < so a value cannot close the script element, and the JSON still parses', () => {
    const data = { name: '</script><script>alert(1)</script> & \u2028' };
    const html = renderToStaticMarkup(createElement(JsonLd, { data }));
    expect(html.startsWith('<script type="application/ld+json">')).toBe(true);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    const inner = html.replace('<script type="application/ld+json">', '').replace('</script>', '');
    expect(JSON.parse(inner)).toEqual(data);
    expect(jsonForScript('<')).toBe('"\\u003c"');
  });
});
