import crypto from 'node:crypto';

import {
  Article,
  Create,
  Delete,
  Document,
  Event,
  Hashtag,
  Image,
  Link,
  Note,
  type Object as APObject,
  Place,
  PUBLIC_COLLECTION,
  Tombstone,
  Update,
} from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';

import { contentTypeFor } from '~/files/serve-file.server';
import type { PublicationVerb } from '~/models/fediverse-publication.server';
import { tracklistRowTitle } from '~/schemas/tracklist';
import { MIX_TYPES } from '~/types/constants';
import type { BlogPostJSON, ShowJSON, TrackJSON } from '~/types/entities';
import { escapeHtml } from '~/utils/html';
import { formatClock } from '~/utils/media-time';
import { paragraphsOf } from '~/utils/paragraphs';
import { absoluteUrl } from '~/utils/seo/seo';
import { DATE_FULL, formatSiteDate, showStart } from '~/utils/time';

/**
 * What the site sends to the fediverse (decision 054), as plain data first (`ObjectSpec`, what
 * the digest is taken of and what the unit tests read), then as Fedify's vocabulary objects.
 *
 * - A track or mix is a `Note`: Mastodon shows a Note's text and plays its `audio/mpeg`
 *   attachment inline, with the cover as the attachment's `icon`; an `Audio` object (what
 *   Funkwhale sends) is only "converted" by Mastodon into a line with a link.
 * - A post is an `Article` (name, summary, link; Mastodon shows the title and the link).
 * - A show is an `Event` with `startTime` and a `Place` (Mobilizon and Friendica read them).
 *
 * Every text is ours or an admin's, escaped here; the HTML is a handful of `<p>`, `<br>` and
 * `<a>`, which every server's sanitiser keeps.
 */

export type AttachmentSpec = { url: string; mediaType: string; name: string; icon: string | null };
export type LinkSpec = { href: string; mediaType: string | null; name: string | null };

export type ObjectSpec = {
  type: 'Note' | 'Article' | 'Event';
  /** The page the object is shown on (its `url`), absolute. */
  url: string;
  /** Further links (a show's tickets). */
  links: LinkSpec[];
  name: string | null;
  summary: string | null;
  content: string;
  attachment: AttachmentSpec | null;
  image: string | null;
  tags: { name: string; href: string }[];
  /** An event's start (UTC ms). */
  startTime: number | null;
  /** An event's place, as one line. */
  location: string | null;
};

const paragraph = (text: string) =>
  `<p>${text
    .split('\n')
    .map((line) => escapeHtml(line))
    .join('<br>')}</p>`;

const link = (href: string, text = href) =>
  `<a href="${escapeHtml(href)}" rel="nofollow noopener noreferrer">${escapeHtml(text)}</a>`;

/** `#liveset` for 'Live set': letters and digits only, lower case (Mastodon's tag syntax). */
export function hashtagOf(type: string): string {
  return `#${type.toLowerCase().replace(/[^\p{L}\p{N}_]/gu, '')}`;
}

const hashtagHtml = (tag: { name: string; href: string }) =>
  `<a href="${escapeHtml(tag.href)}" class="mention hashtag" rel="tag">#<span>${escapeHtml(tag.name.slice(1))}</span></a>`;

/** Only web links leave the site (a ticket URL is an admin's text). */
const isWebUrl = (value: string) => /^https?:\/\/[^\s"<>]+$/i.test(value);

function mediaTypeOf(path: string, fallback: string): string {
  const type = contentTypeFor(path.split('?')[0] ?? path).type;
  return type === 'application/octet-stream' ? fallback : type;
}

/** The path of a track's page, a post's page and a show's id (the object's first id). */
export const trackPath = (id: number) => `/music/${id}`;
export const postPath = (slug: string) => `/blog/${encodeURIComponent(slug)}`;
export const showPath = (id: number) => `/shows/${id}`;

export function trackSpec(track: TrackJSON, origin: string): ObjectSpec {
  const url = absoluteUrl(origin, trackPath(track.id));
  const tagHref = absoluteUrl(
    origin,
    MIX_TYPES.includes(track.type) ? '/music?type=mixes' : '/music',
  );
  const tag = { name: hashtagOf(track.type), href: tagHref };
  const cover = track.coverImage ? absoluteUrl(origin, track.coverImage) : null;
  const parts = [paragraph(`${track.title} – ${track.artist}`)];
  for (const p of paragraphsOf(track.description ?? '')) parts.push(paragraph(p));
  if (track.tracklist.length > 0) {
    const rows = track.tracklist.map((r) => `${formatClock(r.start)} ${tracklistRowTitle(r)}`);
    parts.push(paragraph(['Tracklist:', ...rows].join('\n')));
  }
  parts.push(`<p>${link(url)}</p>`, `<p>${hashtagHtml(tag)}</p>`);
  return {
    type: 'Note',
    url,
    links: [],
    name: null,
    summary: null,
    content: parts.join(''),
    attachment: {
      url: absoluteUrl(origin, track.audioFile),
      mediaType: mediaTypeOf(track.audioFile, 'audio/mpeg'),
      name: `${track.title} – ${track.artist}`,
      icon: cover,
    },
    image: cover,
    tags: [tag],
    startTime: null,
    location: null,
  };
}

export function postSpec(post: BlogPostJSON, origin: string): ObjectSpec {
  const url = absoluteUrl(origin, postPath(post.slug));
  const tag = { name: hashtagOf(post.category), href: absoluteUrl(origin, '/blog') };
  const body = paragraphsOf(post.content).map(paragraph);
  return {
    type: 'Article',
    url,
    links: [],
    name: post.title,
    summary: escapeHtml(post.excerpt),
    content: [...body, `<p>${link(url)}</p>`, `<p>${hashtagHtml(tag)}</p>`].join(''),
    attachment: null,
    image: post.imageUrl ? absoluteUrl(origin, post.imageUrl) : null,
    tags: [tag],
    startTime: null,
    location: null,
  };
}

export function showSpec(show: ShowJSON, origin: string): ObjectSpec {
  const url = absoluteUrl(origin, showPath(show.id));
  const start = showStart(show);
  const where = `${show.venue}, ${show.location}`;
  const when = `${formatSiteDate(show.date, DATE_FULL)}${start.allDay ? '' : `, ${show.time}`}`;
  const tickets = show.ticketUrl && isWebUrl(show.ticketUrl) ? show.ticketUrl : null;
  const parts = [paragraph(show.title), paragraph(`${when}\n${where}`)];
  for (const p of paragraphsOf(show.description ?? '')) parts.push(paragraph(p));
  if (tickets) parts.push(`<p>Tickets: ${link(tickets)}</p>`);
  parts.push(`<p>${link(url)}</p>`);
  return {
    type: 'Event',
    url,
    links: tickets ? [{ href: tickets, mediaType: null, name: 'Tickets' }] : [],
    name: show.title,
    summary: null,
    content: parts.join(''),
    attachment: null,
    image: null,
    tags: [],
    startTime: start.epochMs,
    location: where,
  };
}

/** What decides whether an edit is sent: the rendering, not the item's every field. */
export function digestOf(spec: ObjectSpec): string {
  return crypto.createHash('sha256').update(JSON.stringify(spec)).digest('hex');
}

export type Addressing = { actor: URL; followers: URL };

const instant = (date: Date | number) =>
  Temporal.Instant.fromEpochMilliseconds(typeof date === 'number' ? date : date.getTime());

function imageOf(url: string): Image {
  return new Image({ url: new URL(url), mediaType: mediaTypeOf(url, 'image/jpeg') });
}

/** The id and addressing of every object and activity: to Public, the followers in `cc`. */
const addressed = (input: Addressing & { id: URL }) => ({
  id: input.id,
  to: PUBLIC_COLLECTION,
  cc: input.followers,
});

/** The vocabulary object of a spec: addressed to Public, the followers in `cc`. */
export function objectOf(
  spec: ObjectSpec,
  input: Addressing & { id: URL; published: Date; updated?: Date | null },
): Note | Article | Event {
  const values = {
    ...addressed(input),
    attribution: input.actor,
    name: spec.name,
    summary: spec.summary,
    content: spec.content,
    mediaType: 'text/html',
    urls: [
      new Link({ href: new URL(spec.url), mediaType: 'text/html' }),
      ...spec.links.map(
        (l) => new Link({ href: new URL(l.href), mediaType: l.mediaType, name: l.name }),
      ),
    ],
    published: instant(input.published),
    updated: input.updated ? instant(input.updated) : null,
    image: spec.image ? imageOf(spec.image) : null,
    tags: spec.tags.map((t) => new Hashtag({ name: t.name, href: new URL(t.href) })),
    attachments: spec.attachment
      ? [
          new Document({
            url: new URL(spec.attachment.url),
            mediaType: spec.attachment.mediaType,
            name: spec.attachment.name,
            icon: spec.attachment.icon ? imageOf(spec.attachment.icon) : null,
          }),
        ]
      : [],
  };
  if (spec.type === 'Article') return new Article(values);
  if (spec.type === 'Event') {
    return new Event({
      ...values,
      startTime: spec.startTime === null ? null : instant(spec.startTime),
      location: spec.location ? new Place({ name: spec.location }) : null,
    });
  }
  return new Note(values);
}

/** An id for the object that was deleted: what its URL answers (410) once the Delete is out. */
export function tombstoneOf(id: URL, deleted: Date): Tombstone {
  return new Tombstone({ id, deleted: instant(deleted) });
}

/**
 * The activity of a verb, with an id fixed by the entry and its sequence number: sent again
 * after a crash, it is the same activity (a receiver that saw it ignores it).
 */
export function activityOf(
  verb: PublicationVerb,
  input: Addressing & {
    id: URL;
    object: APObject | URL;
    at: Date;
  },
): Create | Update | Delete {
  const values = {
    ...addressed(input),
    actor: input.actor,
    object: input.object,
    published: instant(input.at),
  };
  if (verb === 'Create') return new Create(values);
  if (verb === 'Update') return new Update(values);
  return new Delete(values);
}
