import mongoose from 'mongoose';

import type { QueueTrackJSON } from '~/types/queue';
import { trackFor, type Viewer } from '~/utils/access';
import { siteToday } from '~/utils/time';

import { cachedFindOne } from './model-helpers.server';
import { findSlice, MAX_PAGE_LIMIT, positionOf } from './paging.server';
import { toTrackJSON, Track, TRACK_JSON_FIELDS } from './track.server';

/**
 * The player's queue over the whole catalogue, by position (issue 37): every track, newest
 * first as /music lists them, read a window at a time on the `{ createdAt: -1, id: -1 }` index.
 * Each track as the viewer may see it (`trackFor`): members-only ones locked for a visitor,
 * processing ones without audio.
 */

export const QUEUE_SORT = { createdAt: -1, id: -1 } as const;
export const MAX_QUEUE_COUNT = MAX_PAGE_LIMIT;
/** The segment a track's file must hold for the queue to start on it (SPEC §9). */
const UPLOADS_AUDIO_SEGMENT = '/uploads/audio/';

/** What `toTrackJSON` reads, but the long fields a queue entry never shows. */
const QUEUE_FIELDS = TRACK_JSON_FIELDS.filter(
  (field) => !['durationSeconds', 'description', 'tracklist', 'featured'].includes(field),
);

type TrackRecord = Parameters<typeof toTrackJSON>[0];

function queueTrackFor(viewer: Viewer, doc: TrackRecord): QueueTrackJSON {
  const view = trackFor(viewer, toTrackJSON(doc));
  const base = {
    id: view.id,
    title: view.title,
    artist: view.artist,
    album: view.album,
    type: view.type,
    duration: view.duration,
    coverImage: view.coverImage,
  };
  return view.locked
    ? { ...base, locked: true }
    : { ...base, audioFile: view.audioFile, locked: false };
}

/** Positions `position`..`position + count - 1` of the queue, and the queue's size. */
export async function findQueueWindowFor(
  viewer: Viewer,
  position: number,
  count: number,
): Promise<{ total: number; tracks: QueueTrackJSON[] }> {
  const { items, total } = await findSlice(Track, {
    sort: QUEUE_SORT,
    fields: QUEUE_FIELDS,
    skip: position,
    limit: Math.min(count, MAX_QUEUE_COUNT),
  });
  return { total, tracks: items.map((doc) => queueTrackFor(viewer, doc)) };
}

/** What the viewer may play: a ready stream, and for a visitor no members-only track. */
function playableFilter(viewer: Viewer): Record<string, unknown>[] {
  const ready = { audioStatus: mongoose.trusted({ $nin: ['processing', 'failed'] }) };
  if (viewer.member) return [ready];
  const today = viewer.today ?? siteToday();
  return [
    ready,
    {
      $or: [
        { visibility: mongoose.trusted({ $ne: 'members' }) },
        { publicAt: mongoose.trusted({ $lte: today }) },
      ],
    },
  ];
}

async function firstMatching(filters: Record<string, unknown>[]) {
  return cachedFindOne(Track, {
    filter: { $and: filters },
    sort: QUEUE_SORT,
    fields: ['id', 'createdAt'],
  });
}

/**
 * Where the queue starts when /music opens it (SPEC §4, §9): the first track, newest first,
 * that the viewer may play and whose file is under /uploads/audio/; else the first they may
 * play; null when they may play none. Two indexed reads: the first match in index order (it
 * stops there), then a count of the tracks before it.
 */
export async function findQueueStartFor(viewer: Viewer): Promise<number | null> {
  const playable = playableFilter(viewer);
  const uploads = {
    audioFile: new RegExp(UPLOADS_AUDIO_SEGMENT.replace(/\//g, '\\/')),
  };
  const first = (await firstMatching([...playable, uploads])) ?? (await firstMatching(playable));
  return first ? positionOf(Track, { sort: QUEUE_SORT }, first) : null;
}

/** The position of track `id` in the queue, or null when there is no such track. */
export async function findQueuePositionOf(id: number): Promise<number | null> {
  const track = await cachedFindOne(Track, { filter: { id }, fields: ['id', 'createdAt'] });
  return track ? positionOf(Track, { sort: QUEUE_SORT }, track) : null;
}
