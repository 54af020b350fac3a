import { XMLParser, XMLValidator } from 'fast-xml-parser';
import ical from 'node-ical';
import { describe, expect, it } from 'vitest';

import type { BlogPostJSON, ShowJSON } from '~/types/entities';
import { showStart } from '~/utils/time';

import {
  blogRssXml,
  escapeIcsText,
  foldIcsLine,
  robotsTxt,
  showIcsFileName,
  showsIcs,
  sitemapEntries,
  sitemapXml,
} from './feeds';

const ORIGIN = 'https://nightshore.example';

const posts: BlogPostJSON[] = [
  {
    id: 2,
    title: 'Summer <Shows> & "More"',
    slug: 'summer-shows',
    content: 'x',
    excerpt: 'Boardwalk nights, salt & synths.',
    imageUrl: '/uploads/images/summer.png',
    category: 'EVENTS',
    visibility: 'public',
    publicAt: null,
    locked: false,
    createdAt: '2025-06-01T12:00:00.000Z',
  },
  {
    id: 1,
    title: 'Album release',
    slug: 'album-release',
    content: 'y',
    excerpt: 'Out now.',
    imageUrl: '/uploads/images/album.jpg',
    category: 'NEWS',
    visibility: 'public',
    publicAt: null,
    locked: false,
    createdAt: '2025-05-01T12:00:00.000Z',
  },
];

const shows: ShowJSON[] = [
  {
    id: 7,
    title: 'Hometown, Night; One \\ Two',
    venue: 'Wavelength Ballroom',
    location: 'Asbury Park, NJ',
    date: '2025-07-04',
    time: '8:00 PM',
    ticketUrl: 'https://tickets.example.com/a?b=1,2',
    description:
      'A long description with commas, semicolons; backslashes \\ and a newline\nthat goes on and on well beyond seventy-five octets — with ünïcödé characters too.',
    guestListCapacity: 0,
    guestListCount: 0,
    createdAt: '2025-03-01T10:00:00.000Z',
  },
  {
    id: 8,
    title: 'Winter set',
    venue: 'The Underpass',
    location: 'Philadelphia, PA',
    date: '2025-12-13',
    time: '9:30 PM',
    ticketUrl: null,
    description: null,
    guestListCapacity: 0,
    guestListCount: 0,
    createdAt: '2025-03-02T10:00:00.000Z',
  },
  {
    id: 9,
    title: 'Day party',
    venue: 'Beach',
    location: 'Belmar',
    date: '2025-08-01',
    time: 'TBA',
    ticketUrl: null,
    description: null,
    guestListCapacity: 0,
    guestListCount: 0,
    createdAt: '2025-03-03T10:00:00.000Z',
  },
];

describe('sitemap and robots', () => {
  it('lists the public pages, every post and every show, as valid XML', () => {
    const xml = sitemapXml(ORIGIN, sitemapEntries({ posts, shows }));
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser().parse(xml) as { urlset: { url: { loc: string }[] } };
    const locs = doc.urlset.url.map((u) => u.loc);
    for (const p of ['/', '/music', '/gallery', '/blog', '/shows', '/about', '/contact']) {
      expect(locs).toContain(`${ORIGIN}${p}`);
    }
    expect(locs).toContain(`${ORIGIN}/blog/summer-shows`);
    expect(locs).toContain(`${ORIGIN}/blog/album-release`);
    expect(locs).toContain(`${ORIGIN}/shows#show-7`);
    expect(locs).toContain(`${ORIGIN}/shows#show-9`);
  });

  it('robots.txt disallows /admin and /api and links the sitemap', () => {
    const txt = robotsTxt(ORIGIN);
    expect(txt).toMatch(/^Disallow: \/admin$/m);
    expect(txt).toMatch(/^Disallow: \/api$/m);
    expect(txt).toMatch(/^Sitemap: https:\/\/nightshore\.example\/sitemap\.xml$/m);
  });
});

describe('RSS 2.0', () => {
  it('parses and carries every post with escaped text', () => {
    const xml = blogRssXml({ origin: ORIGIN, siteName: 'Night Shore', description: 'News', posts });
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false }).parse(xml) as {
      rss: {
        '@_version': string;
        channel: {
          title: string;
          link: string;
          item: {
            title: string;
            link: string;
            guid: { '#text': string };
            pubDate: string;
            description: string;
          }[];
        };
      };
    };
    expect(doc.rss['@_version']).toBe('2.0');
    expect(doc.rss.channel.title).toBe('Night Shore Blog');
    expect(doc.rss.channel.link).toBe(`${ORIGIN}/blog`);
    const items = doc.rss.channel.item;
    expect(items).toHaveLength(2);
    expect(items[0]!.title).toBe('Summer <Shows> & "More"');
    expect(xml).toContain('<title>Summer &lt;Shows&gt; &amp; &quot;More&quot;</title>');
    expect(items[0]!.link).toBe(`${ORIGIN}/blog/summer-shows`);
    expect(items[0]!.guid['#text']).toBe(`${ORIGIN}/blog/summer-shows`);
    expect(new Date(items[0]!.pubDate).toISOString()).toBe('2025-06-01T12:00:00.000Z');
  });
});

describe('iCalendar', () => {
  const now = new Date('2025-06-15T09:08:07Z');
  const ics = showsIcs({ origin: ORIGIN, siteName: 'Night Shore', shows, now });

  it('uses CRLF line endings and folds lines at 75 octets', () => {
    expect(ics.endsWith('\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of ics.split('\r\n')) {
      expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    }
    expect(ics).toMatch(/\r\n [^\r\n]/); // at least one folded line
    expect(
      foldIcsLine('a'.repeat(160))
        .split('\r\n ')
        .map((l) => l.length),
    ).toEqual([75, 74, 11]);
  });

  it('escapes TEXT values', () => {
    expect(escapeIcsText('a,b;c\\d\ne')).toBe('a\\,b\\;c\\\\d\\ne');
  });

  it('parses with node-ical: one event per show, New York times, all-day when the time is unknown', () => {
    const data = ical.sync.parseICS(ics);
    const events = Object.values(data).filter((c): c is ical.VEvent => c?.type === 'VEVENT');
    expect(events).toHaveLength(3);
    const byUid = new Map(events.map((e) => [e.uid, e]));

    const hometown = byUid.get('show-7@nightshore.example')!;
    expect(hometown.summary).toBe('Night Shore: Hometown, Night; One \\ Two');
    expect(hometown.location).toBe('Wavelength Ballroom, Asbury Park, NJ');
    // 8 PM in New York in July (EDT, UTC-4) is midnight UTC.
    expect(hometown.start.toISOString()).toBe('2025-07-05T00:00:00.000Z');
    expect(hometown.description).toContain(
      'semicolons; backslashes \\ and a newline\nthat goes on',
    );
    expect(hometown.description).toContain('ünïcödé');
    expect(hometown.description).toContain('Tickets: https://tickets.example.com/a?b=1,2');
    const url = hometown.url as unknown;
    expect(typeof url === 'string' ? url : JSON.stringify(url)).toContain(`${ORIGIN}/shows#show-7`);
    expect(hometown.dtstamp?.toISOString()).toBe('2025-06-15T09:08:07.000Z');

    // 9:30 PM in December (EST, UTC-5).
    expect(byUid.get('show-8@nightshore.example')!.start.toISOString()).toBe(
      '2025-12-14T02:30:00.000Z',
    );
    const allDay = byUid.get('show-9@nightshore.example')!;
    expect(allDay.datetype).toBe('date');
  });

  it('declares the time zone it uses', () => {
    expect(ics).toContain('BEGIN:VTIMEZONE\r\nTZID:America/New_York');
    expect(ics).toContain('DTSTART;TZID=America/New_York:20250704T200000');
    expect(ics).toContain('DTSTART;VALUE=DATE:20250801');
  });

  it('names a show download', () => {
    expect(showIcsFileName(shows[0]!)).toBe('2025-07-04-hometown-night-one-two.ics');
  });

  it('show start times carry the zone offset', () => {
    expect(showStart(shows[0]!).iso).toBe('2025-07-04T20:00:00-04:00');
    expect(showStart(shows[1]!).iso).toBe('2025-12-13T21:30:00-05:00');
    expect(showStart(shows[2]!)).toMatchObject({ allDay: true, iso: '2025-08-01' });
  });
});
