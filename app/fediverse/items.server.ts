import { getBlogPost } from '~/models/blog-post.server';
import type {
  PublicationDoc,
  PublicationKind,
  PublicationVerb,
} from '~/models/fediverse-publication.server';
import { getShow } from '~/models/show.server';
import { getTrack } from '~/models/track.server';
import { siteOrigin } from '~/platform/site-origin.server';
import type { Visibility } from '~/types/entities';
import { isMembersOnly } from '~/utils/access';
import { siteDayStart, siteToday } from '~/utils/time';

import { ACTOR_ID, PATHS } from './actor.server';
import {
  type Addressing,
  type ObjectSpec,
  postPath,
  postSpec,
  showPath,
  showSpec,
  trackPath,
  trackSpec,
} from './render.server';

/**
 * The items as publishing sees them (decision 054): a track, post or show read for the
 * fediverse (public today? playable? due again when?), the site's actor and followers as
 * addressees, and the fixed ids of activities. Shared by the sending side
 * (publication.server.ts) and the answering side (objects.server.ts), and free of the delivery
 * queue, so the federation's set-up (which registers the answering side) imports no cycle.
 */

/** A public track whose stream is still being made is looked at again after this. */
export const STREAM_WAIT_MS = 60_000;

/** The item as publishing sees it today: null when it no longer exists. */
export type ItemState = {
  path: string;
  /** Members-only today (a show never is). */
  hidden: boolean;
  /** Its stream is ready (a track; posts and shows always are). */
  ready: boolean;
  /** A show already in the past is not announced (it is answered, and edits are sent). */
  announce: boolean;
  /** When it should be looked at again without a save: its early-access day, its stream. */
  due: Date | null;
  spec: ObjectSpec | null;
};

const earlyAccessDue = (
  item: { visibility: Visibility; publicAt: string | null },
  today: string,
) => (isMembersOnly(item, today) && item.publicAt ? new Date(siteDayStart(item.publicAt)) : null);

export async function loadItem(
  kind: PublicationKind,
  id: number,
  now: Date,
): Promise<ItemState | null> {
  const today = siteToday(now);
  const origin = siteOrigin();
  if (kind === 'track') {
    const track = await getTrack(id);
    if (!track) return null;
    const ready = track.audioStatus === 'ready';
    const waiting = track.audioStatus === 'processing';
    return {
      path: trackPath(id),
      hidden: isMembersOnly(track, today),
      ready,
      announce: true,
      due:
        earlyAccessDue(track, today) ?? (waiting ? new Date(now.getTime() + STREAM_WAIT_MS) : null),
      spec: ready ? trackSpec(track, origin) : null,
    };
  }
  if (kind === 'post') {
    const post = await getBlogPost(id);
    if (!post) return null;
    return {
      path: postPath(post.slug),
      hidden: isMembersOnly(post, today),
      ready: true,
      announce: true,
      due: earlyAccessDue(post, today),
      spec: postSpec(post, origin),
    };
  }
  const show = await getShow(id);
  if (!show) return null;
  return {
    path: showPath(id),
    hidden: false,
    ready: true,
    announce: show.date >= today,
    due: null,
    spec: showSpec(show, origin),
  };
}

/** The site's actor and its followers collection (what Fedify's context would give). */
export function addressing(origin = siteOrigin()): Addressing {
  const actorPath = PATHS.actor.replace('{identifier}', ACTOR_ID);
  return {
    actor: new URL(actorPath, origin),
    followers: new URL(PATHS.followers.replace('{identifier}', ACTOR_ID), origin),
  };
}

/** A fixed id per recorded activity: `…/music/12#create-track12-1`. */
export function activityIdOf(
  entry: Pick<PublicationDoc, 'objectId' | 'key'>,
  verb: PublicationVerb,
  seq: number,
  origin = siteOrigin(),
): URL {
  const base = (entry.objectId ?? '/').split('#')[0] ?? '/';
  return new URL(`${base}#${verb.toLowerCase()}-${entry.key.replace(':', '')}-${seq}`, origin);
}
