import {
  Article,
  Create,
  Event,
  Note,
  type Object as APObject,
  PUBLIC_COLLECTION,
} from '@fedify/fedify';

import { isNegotiatedPath, wantsActivityStreams } from '~/document/negotiation.server';
import { getBlogPostBySlug } from '~/models/blog-post.server';
import {
  countPublished,
  getPublication,
  pagePublished,
  type PublicationDoc,
  type PublicationKind,
  publicationsByPath,
} from '~/models/fediverse-publication.server';
import { parseId } from '~/models/model-helpers.server';
import { BadCursorError } from '~/models/paging.server';
import { siteOrigin } from '~/platform/site-origin.server';

import { ACTOR_ID, PATHS } from './actor.server';
import type { SiteFederation } from './federation.server';
import { activityIdOf, addressing, loadItem } from './items.server';
import { objectOf, postPath, tombstoneOf } from './render.server';

/**
 * What the site's URLs answer to ActivityPub clients (decision 054), registered on fedicore's
 * federation (federation.server.ts calls `configurePublishing`):
 *
 * - `/music/{id}` a track's `Note`, `/blog/{slug}` a post's `Article`, `/shows/{id}` a show's
 *   `Event`: only while the item is public (a members-only item answers once it is), under the
 *   id it was published with (a post whose slug changed still answers on its first URL).
 * - The outbox (`/fediverse/site/outbox`): the published items as `Create`s, newest publication
 *   first, 20 a page (a keyset cursor over the ledger).
 * - `answerTombstone`: an id the site sent a `Delete` for answers 410 with a `Tombstone`
 *   (fedicore's mount asks it when Fedify found nothing); browsers keep the HTML 404.
 *
 * A browser never gets here: the mount sends a page's URL to Fedify only for an Accept that asks
 * for ActivityStreams (`wantsActivityStreams`).
 */

const OUTBOX_PAGE = 20;
const FIRST = 'first';

/** The object a URL answers, or null (404, or a Tombstone). */
export async function objectOfItem(
  kind: PublicationKind,
  id: number,
  now = new Date(),
): Promise<APObject | null> {
  const item = await loadItem(kind, id, now);
  if (!item || item.hidden || !item.ready || !item.spec) return null;
  const entry = await getPublication(kind, id);
  const published = entry?.state === 'published' ? entry : null;
  // A public item never sent (from before the fediverse, a past show) is answered as itself.
  if (!published && entry?.state === 'withdrawn') return null;
  const origin = siteOrigin();
  return objectOf(item.spec, {
    ...addressing(origin),
    id: new URL(published?.objectId ?? item.path, origin),
    published: published?.publishedAt ?? now,
    updated: published?.lastVerb === 'Update' ? published.updatedAt : null,
  });
}

async function postBySlugOrFirstPath(slug: string): Promise<APObject | null> {
  const post = await getBlogPostBySlug(slug);
  if (post) return objectOfItem('post', post.id);
  // A post renamed since it was published still answers on the id it went out with.
  const path = postPath(slug);
  const entry = (await publicationsByPath(path)).find(
    (p) => p.kind === 'post' && p.state === 'published' && p.objectId?.split('#')[0] === path,
  );
  return entry ? objectOfItem('post', entry.itemId) : null;
}

async function createOf(entry: PublicationDoc): Promise<Create | null> {
  const object = await objectOfItem(entry.kind, entry.itemId);
  if (!object) return null;
  const origin = siteOrigin();
  const address = addressing(origin);
  return new Create({
    id: activityIdOf(entry, 'Create', entry.createSeq, origin),
    actor: address.actor,
    to: PUBLIC_COLLECTION,
    ccs: [address.followers],
    object,
    published: object.published,
  });
}

export function configurePublishing(federation: SiteFederation): void {
  federation.setObjectDispatcher(Note, '/music/{id}', async (_ctx, values) => {
    const id = parseId(values.id);
    const object = id === null ? null : await objectOfItem('track', id);
    return object instanceof Note ? object : null;
  });
  federation.setObjectDispatcher(Article, '/blog/{slug}', async (_ctx, values) => {
    if (!values.slug || values.slug.length > 200) return null;
    const object = await postBySlugOrFirstPath(values.slug);
    return object instanceof Article ? object : null;
  });
  federation.setObjectDispatcher(Event, '/shows/{id}', async (_ctx, values) => {
    const id = parseId(values.id);
    const object = id === null ? null : await objectOfItem('show', id);
    return object instanceof Event ? object : null;
  });

  federation
    .setOutboxDispatcher(PATHS.outbox, async (_ctx, identifier, cursor) => {
      if (identifier !== ACTOR_ID || cursor === null) return null;
      let page;
      try {
        page = await pagePublished(cursor === FIRST ? null : cursor, OUTBOX_PAGE);
      } catch (error) {
        if (error instanceof BadCursorError) return null;
        throw error;
      }
      const items = (await Promise.all(page.items.map(createOf))).filter(
        (activity): activity is Create => activity !== null,
      );
      return { items, nextCursor: page.next };
    })
    .setCounter((_ctx, identifier) => (identifier === ACTOR_ID ? countPublished() : null))
    .setFirstCursor((_ctx, identifier) => (identifier === ACTOR_ID ? FIRST : null));
}

/**
 * For an ActivityPub client's GET of an object URL Fedify found nothing at: 410 with the
 * `Tombstone` for an id the site sent a `Delete` for, else 404 (a members-only item, a junk id:
 * not the page's HTML, which an ActivityPub client cannot read). Null for anything else (Remix
 * answers: a browser keeps the page, or the HTML 404).
 */
export async function answerTombstone(request: Request): Promise<Response | null> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null;
  if (!wantsActivityStreams(request.headers.get('accept'))) return null;
  const path = new URL(request.url).pathname;
  if (!isNegotiatedPath(path)) return null;
  const headers = { Vary: 'Accept', 'Cache-Control': 'no-store' };
  const entries = await publicationsByPath(path);
  const gone = entries.find((entry) => entry.state === 'withdrawn' && entry.objectId);
  if (!gone?.objectId || entries.some((entry) => entry.state === 'published')) {
    return new Response('Not Found\n', {
      status: 404,
      headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' },
    });
  }
  const origin = siteOrigin();
  const tombstone = tombstoneOf(new URL(gone.objectId, origin), gone.withdrawnAt ?? gone.updatedAt);
  return new Response(JSON.stringify(await tombstone.toJsonLd()), {
    status: 410,
    headers: { ...headers, 'Content-Type': 'application/activity+json' },
  });
}
