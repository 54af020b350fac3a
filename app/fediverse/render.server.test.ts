import { describe, expect, it } from 'vitest';

import type { BlogPostJSON, ShowJSON, TrackJSON } from '~/types/entities';

import {
  activityOf,
  digestOf,
  hashtagOf,
  objectOf,
  postSpec,
  showSpec,
  tombstoneOf,
  trackSpec,
} from './render.server';

/**
 * What a follower's server receives (decision 054), read as JSON-LD the way Mastodon reads it:
 * a mix is a Note whose content carries the title, description, tracklist and a hashtag of its
 * type, with `url` the track page and an `audio/mpeg` attachment; a post an Article; a show an
 * Event; every object addressed to Public with the followers in `cc`; every text escaped.
 */

const ORIGIN = 'https://nightshore.example';
const address = {
  actor: new URL('/fediverse/site', ORIGIN),
  followers: new URL('/fediverse/site/followers', ORIGIN),
};
const PUBLIC = ['https://www.w3.org/ns/activitystreams#Public', 'as:Public', 'Public'];

const mix: TrackJSON = {
  id: 12,
  title: 'Boardwalk <Sunrise> Mix',
  artist: 'Night Shore',
  album: null,
  type: 'Mix',
  duration: '1:02:30',
  durationSeconds: 3750,
  description: 'Recorded live at dawn.\n\nWith <b>friends</b> & "guests".',
  tracklist: [
    { start: 0, artist: 'Tide', title: 'Low', label: null },
    { start: 754, artist: 'Gull & Co', title: 'Pier', label: 'Shore Rec' },
  ],
  audioStatus: 'ready',
  coverImage: '/uploads/images/cover.jpg',
  featured: false,
  visibility: 'public',
  publicAt: null,
  createdAt: '2026-11-01T12:00:00.000Z',
  audioFile: '/uploads/audio/boardwalk.mp3',
  locked: false,
};

type Json = Record<string, unknown>;
const asArray = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : value === undefined ? [] : [value];

async function jsonOf(spec: ReturnType<typeof trackSpec>, id: string): Promise<Json> {
  const object = objectOf(spec, {
    ...address,
    id: new URL(id, ORIGIN),
    published: new Date('2026-11-02T10:00:00Z'),
  });
  return (await object.toJsonLd()) as Json;
}

describe('a mix as a Mastodon-compatible Note', () => {
  it('has the id, the page as url, the actor, Public in to and the followers in cc', async () => {
    const json = await jsonOf(trackSpec(mix, ORIGIN), '/music/12');
    expect(json.type).toBe('Note');
    expect(json.id).toBe(`${ORIGIN}/music/12`);
    expect(json.attributedTo).toBe(`${ORIGIN}/fediverse/site`);
    expect(asArray(json.to).some((to) => PUBLIC.includes(String(to)))).toBe(true);
    expect(asArray(json.cc)).toContain(`${ORIGIN}/fediverse/site/followers`);
    const url = asArray(json.url)[0] as Json;
    expect(url.href).toBe(`${ORIGIN}/music/12`);
    expect(url.mediaType).toBe('text/html');
    expect(json.published).toBe('2026-11-02T10:00:00Z');
    // Mastodon shows a Note's summary as a content warning: none.
    expect(json.summary).toBeUndefined();
  });

  it('carries the audio as an audio/mpeg attachment with the cover as its icon', async () => {
    const json = await jsonOf(trackSpec(mix, ORIGIN), '/music/12');
    const [attachment] = asArray(json.attachment) as Json[];
    expect(attachment.type).toBe('Document');
    expect(attachment.mediaType).toBe('audio/mpeg');
    expect(attachment.url).toBe(`${ORIGIN}/uploads/audio/boardwalk.mp3`);
    expect(attachment.name).toBe('Boardwalk <Sunrise> Mix – Night Shore');
    expect((attachment.icon as Json).url).toBe(`${ORIGIN}/uploads/images/cover.jpg`);
    expect((json.image as Json).url).toBe(`${ORIGIN}/uploads/images/cover.jpg`);
  });

  it('writes title, description and tracklist as escaped HTML, with the hashtag of its type', async () => {
    const json = await jsonOf(trackSpec(mix, ORIGIN), '/music/12');
    const content = String(json.content);
    expect(content).toContain('<p>Boardwalk &lt;Sunrise&gt; Mix – Night Shore</p>');
    expect(content).toContain('<p>Recorded live at dawn.</p>');
    expect(content).toContain('With &lt;b&gt;friends&lt;/b&gt; &amp; &quot;guests&quot;.');
    expect(content).toContain(
      'Tracklist:<br>0:00 Tide – Low<br>12:34 Gull &amp; Co – Pier [Shore Rec]',
    );
    expect(content).toContain(`<a href="${ORIGIN}/music/12"`);
    expect(content).toContain('class="mention hashtag" rel="tag">#<span>mix</span></a>');
    expect(content).not.toMatch(/<(?!\/?(p|br|a|span)\b)/);
    const tags = asArray(json.tag) as Json[];
    expect(tags).toEqual([
      expect.objectContaining({
        type: 'Hashtag',
        name: '#mix',
        href: `${ORIGIN}/music?type=mixes`,
      }),
    ]);
  });

  it('names the hashtag after each of the site types', () => {
    expect(['Single', 'EP', 'Album', 'Mix', 'Live set', 'Radio show'].map(hashtagOf)).toEqual([
      '#single',
      '#ep',
      '#album',
      '#mix',
      '#liveset',
      '#radioshow',
    ]);
  });

  it('has a digest that moves with what is shown, not with what is not', () => {
    const base = digestOf(trackSpec(mix, ORIGIN));
    expect(digestOf(trackSpec({ ...mix, featured: true }, ORIGIN))).toBe(base);
    expect(digestOf(trackSpec({ ...mix, title: 'Another title' }, ORIGIN))).not.toBe(base);
  });
});

describe('a post and a show', () => {
  const post: BlogPostJSON = {
    id: 3,
    title: 'Summer <tour>',
    slug: 'summer-tour',
    excerpt: 'Dates & places',
    content: 'First paragraph.\n\nSecond <i>one</i>.',
    imageUrl: '/uploads/images/tour.jpg',
    category: 'NEWS',
    visibility: 'public',
    publicAt: null,
    createdAt: '2026-11-01T12:00:00.000Z',
    locked: false,
  };

  it('a post is an Article with its title, summary, link and content', async () => {
    const json = await jsonOf(postSpec(post, ORIGIN), '/blog/summer-tour');
    expect(json.type).toBe('Article');
    expect(json.name).toBe('Summer <tour>');
    expect(json.summary).toBe('Dates &amp; places');
    expect((asArray(json.url)[0] as Json).href).toBe(`${ORIGIN}/blog/summer-tour`);
    expect(String(json.content)).toContain('<p>Second &lt;i&gt;one&lt;/i&gt;.</p>');
    expect(asArray(json.cc)).toContain(`${ORIGIN}/fediverse/site/followers`);
  });

  const show: ShowJSON = {
    id: 7,
    title: 'Live at the Pony',
    venue: 'The Stone Pony',
    location: 'Asbury Park, NJ',
    date: '2027-07-04',
    time: '8:00 PM',
    ticketUrl: 'https://tickets.example/pony?a=1&b=2',
    description: null,
    guestListCapacity: 0,
    guestListCount: 0,
    createdAt: '2026-11-01T12:00:00.000Z',
  };

  it('a show is an Event with its start time, the venue as a Place and the ticket link', async () => {
    const json = await jsonOf(showSpec(show, ORIGIN), '/shows/7');
    expect(json.type).toBe('Event');
    expect(json.id).toBe(`${ORIGIN}/shows/7`);
    expect(json.name).toBe('Live at the Pony');
    // 8 PM in New York on July 4 (EDT, UTC-4).
    expect(json.startTime).toBe('2027-07-05T00:00:00Z');
    expect(json.location).toEqual(
      expect.objectContaining({ type: 'Place', name: 'The Stone Pony, Asbury Park, NJ' }),
    );
    const urls = asArray(json.url) as Json[];
    expect(urls.map((u) => u.href)).toEqual([
      `${ORIGIN}/shows/7`,
      'https://tickets.example/pony?a=1&b=2',
    ]);
    expect(String(json.content)).toContain('href="https://tickets.example/pony?a=1&amp;b=2"');
  });

  it('leaves out a ticket link that is not a web address', () => {
    const spec = showSpec({ ...show, ticketUrl: 'javascript:alert(1)' }, ORIGIN);
    expect(spec.links).toEqual([]);
    expect(spec.content).not.toContain('javascript');
  });
});

describe('activities', () => {
  it('Create, Update and Delete are addressed like their object; Delete carries a Tombstone', async () => {
    const id = new URL('/music/12', ORIGIN);
    const note = objectOf(trackSpec(mix, ORIGIN), { ...address, id, published: new Date() });
    const create = (await activityOf('Create', {
      ...address,
      id: new URL('/music/12#create-track12-1', ORIGIN),
      object: note,
      at: new Date(),
    }).toJsonLd()) as Json;
    expect(create.type).toBe('Create');
    expect(create.actor).toBe(`${ORIGIN}/fediverse/site`);
    expect((create.object as Json).id).toBe(`${ORIGIN}/music/12`);
    expect(asArray(create.cc)).toContain(`${ORIGIN}/fediverse/site/followers`);
    const del = (await activityOf('Delete', {
      ...address,
      id: new URL('/music/12#delete-track12-3', ORIGIN),
      object: tombstoneOf(id, new Date('2026-11-03T00:00:00Z')),
      at: new Date(),
    }).toJsonLd()) as Json;
    expect(del.type).toBe('Delete');
    expect(del.object).toEqual(
      expect.objectContaining({ type: 'Tombstone', id: `${ORIGIN}/music/12` }),
    );
  });
});
