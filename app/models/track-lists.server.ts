import mongoose from 'mongoose';

import type { TrackJSON, TrackView, Visibility } from '~/types/entities';
import { trackFor, type Viewer } from '~/utils/access';
import { escapeRegExp } from '~/utils/regexp';

import { cachedFind } from './model-helpers.server';
import { countRecords, findNumberedPage, type NumberedPage } from './paging.server';
import { toTrackJSON, Track } from './track.server';

/**
 * The public side's track lists (issue 37, decision 044): /music a page at a time, the footer's
 * latest releases as teasers. Every read is bounded by what the page shows.
 */

const NEWEST_FIRST = { createdAt: -1, id: -1 } as const;

/** Tracks on one page of /music's grid. */
export const TRACKS_PER_PAGE = 24;

/** The filter of a track list: `q` over title, artist or album; `types` of release. */
function trackFilter(options: { q?: string; types?: readonly string[] }): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  const q = options.q?.trim();
  if (q) {
    const re = new RegExp(escapeRegExp(q), 'i');
    filter.$or = [{ title: re }, { artist: re }, { album: re }];
  }
  if (options.types) filter.type = mongoose.trusted({ $in: [...options.types] });
  return filter;
}

export type TrackPage = NumberedPage<TrackView> & {
  /** Every track (unfiltered): the size of the player's queue. */
  queueSize: number;
  /**
   * Where the page's first track stands in the whole list, newest first (the player's queue):
   * its offset when no search or filter narrows the list, else null.
   */
  queueOffset: number | null;
};

/**
 * One page of /music (issue 37): the search and the type filter run in the query over the
 * whole catalogue, newest first, with the total for the page count; each track as `viewer`
 * may see it. A page past the end is the last page.
 */
export async function findTrackPageFor(
  viewer: Viewer,
  options: { q?: string; types?: readonly string[]; page: number; perPage?: number },
): Promise<TrackPage> {
  const filter = trackFilter(options);
  const narrowed = Object.keys(filter).length > 0;
  const [found, queueSize] = await Promise.all([
    findNumberedPage(Track, {
      filter,
      sort: NEWEST_FIRST,
      page: options.page,
      perPage: options.perPage ?? TRACKS_PER_PAGE,
    }),
    countRecords(Track),
  ]);
  return {
    ...found,
    items: found.items.map((doc) => trackFor(viewer, toTrackJSON(doc))),
    queueSize,
    queueOffset: narrowed ? null : (found.page - 1) * found.perPage,
  };
}

/** What the footer shows of a release: no description, tracklist or audio. */
export type TrackTeaser = Pick<TrackJSON, 'id' | 'title' | 'type' | 'coverImage'> & {
  visibility: Visibility;
  publicAt: string | null;
};

/** The `limit` newest tracks, only the fields of a teaser (the footer's Latest Releases). */
export async function listLatestTrackTeasers(limit: number): Promise<TrackTeaser[]> {
  const docs = await cachedFind(Track, {
    sort: NEWEST_FIRST,
    limit,
    fields: ['id', 'title', 'type', 'coverImage', 'visibility', 'publicAt', 'createdAt'],
  });
  return docs.map((d) => ({
    id: d.id,
    title: d.title,
    type: d.type ?? 'Single',
    coverImage: d.coverImage,
    visibility: d.visibility === 'members' ? 'members' : 'public',
    publicAt: d.visibility === 'members' ? (d.publicAt ?? null) : null,
  }));
}
