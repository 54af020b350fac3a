import crypto from 'node:crypto';

import mongoose, { Schema } from 'mongoose';

import { MIX_TYPES } from '~/types/constants';
import type { AudioStatus, TrackJSON, TracklistRow, TrackView, Visibility } from '~/types/entities';
import { isMembersOnly, trackFor, type Viewer } from '~/utils/access';
import { parseClock } from '~/utils/media-time';
import { escapeRegExp } from '~/utils/regexp';
import { siteToday, siteWeekNumber } from '~/utils/time';

import { serialIdPlugin } from './counter.server';
import { cachedFind, cachedFindOne, defineModel, iso } from './model-helpers.server';
import {
  countRecords,
  findNumberedPage,
  type NumberedPage,
  type RecordList,
} from './paging.server';
import { getTheme } from './theme.server';

/**
 * A track: its record, the JSON every reader gets, and the reads. Writes are in
 * `track-writes.server.ts`, the audio processing's state in `track-audio.server.ts`, the
 * podcast's mixes and GUIDs in `track-podcast.server.ts`.
 */

export type TrackDoc = {
  id: number;
  title: string;
  artist: string;
  album?: string | null;
  type: string;
  duration: string;
  durationSeconds?: number | null;
  description?: string | null;
  tracklist?: TracklistRow[];
  coverImage: string;
  /** What listeners get: the upload itself, or once transcoded its 192 kbps stream. */
  audioFile: string;
  /** The upload, kept once a stream replaced it in `audioFile` (admins only, decision 035). */
  originalAudioFile?: string | null;
  /** Absent on tracks from before decision 035: ready. */
  audioStatus?: AudioStatus;
  /** Why the processing failed (admins only). */
  audioError?: string | null;
  featured: boolean;
  visibility?: Visibility;
  /** YYYY-MM-DD: a members-only track turns public on this day (early access). */
  publicAt?: string | null;
  /**
   * Its podcast episode's `<guid>`, fixed when the track is created and never derived from the
   * host (decision 037): `urn:uuid:…`, or for a track from before, the `{host}:track:{id}` it
   * may already have gone out with (`migrateTrackGuids`).
   */
  podcastGuid?: string | null;
  createdAt: Date;
  updatedAt: Date;
};

/** A new track's podcast GUID: no host, no id, nothing that can change (decision 037). */
export function newPodcastGuid(): string {
  return `urn:uuid:${crypto.randomUUID()}`;
}

const TrackSchema = new Schema<TrackDoc>(
  {
    title: { type: String, required: true, trim: true },
    artist: { type: String, required: true, trim: true },
    album: { type: String, default: null },
    type: { type: String, default: 'Single' },
    duration: { type: String, default: '0:00' },
    durationSeconds: { type: Number, default: null },
    description: { type: String, default: null },
    tracklist: {
      type: [
        {
          _id: false,
          start: { type: Number, required: true },
          artist: { type: String, required: true },
          title: { type: String, required: true },
          label: { type: String, default: null },
        },
      ],
      default: [],
    },
    coverImage: { type: String, required: true },
    audioFile: { type: String, required: true },
    originalAudioFile: { type: String, default: null },
    audioStatus: { type: String, enum: ['processing', 'ready', 'failed'], default: 'ready' },
    audioError: { type: String, default: null },
    featured: { type: Boolean, default: false, index: true },
    visibility: { type: String, enum: ['public', 'members'], default: 'public' },
    publicAt: { type: String, default: null },
    podcastGuid: { type: String, default: newPodcastGuid },
  },
  { timestamps: true },
);
TrackSchema.plugin(serialIdPlugin, { counter: 'tracks' });
TrackSchema.index({ createdAt: -1, id: -1 });
// The back office's Featured Tracks tab, newest first (issue 37).
TrackSchema.index({ featured: 1, createdAt: -1, id: -1 });
// /music's type filter (the Mixes tab) pages newest first within the chosen types.
TrackSchema.index({ type: 1, createdAt: -1, id: -1 });
// /uploads/audio/* looks its track up by file to decide who may have the bytes.
TrackSchema.index({ audioFile: 1 });
// …and refuses a track's kept original to everyone but admins.
TrackSchema.index({ originalAudioFile: 1 });

export const Track = defineModel<TrackDoc>('Track', TrackSchema, 'tracks');

export function toTrackJSON(t: TrackDoc): TrackJSON {
  return {
    id: t.id,
    title: t.title,
    artist: t.artist,
    album: t.album ?? null,
    type: t.type ?? 'Single',
    duration: t.duration ?? '0:00',
    durationSeconds: t.durationSeconds ?? secondsOf(t.duration ?? '0:00'),
    description: t.description ?? null,
    tracklist: (t.tracklist ?? []).map((row) => ({
      start: row.start,
      artist: row.artist,
      title: row.title,
      label: row.label ?? null,
    })),
    coverImage: t.coverImage,
    audioFile: t.audioFile,
    audioStatus: t.audioStatus ?? 'ready',
    featured: Boolean(t.featured),
    visibility: t.visibility === 'members' ? 'members' : 'public',
    publicAt: t.visibility === 'members' ? (t.publicAt ?? null) : null,
    createdAt: iso(t.createdAt),
    locked: false,
  };
}

/** Seconds in a stored "m:ss" or "h:mm:ss" duration, read as the player reads it (0: none). */
function secondsOf(duration: string): number {
  return parseClock(duration, { lenient: true }) ?? 0;
}

export const NEWEST_FIRST = { createdAt: -1, id: -1 } as const;

/**
 * All tracks, newest first; `q` is a case-insensitive substring of title, artist or album;
 * `types`: only tracks of these release types (e.g. MIX_TYPES).
 */
export async function listTracks(
  options: { q?: string; limit?: number; featured?: boolean; types?: readonly string[] } = {},
): Promise<TrackJSON[]> {
  const filter: Record<string, unknown> = {};
  const q = options.q?.trim();
  if (q) {
    const re = new RegExp(escapeRegExp(q), 'i');
    filter.$or = [{ title: re }, { artist: re }, { album: re }];
  }
  if (options.featured !== undefined) filter.featured = options.featured;
  if (options.types) filter.type = mongoose.trusted({ $in: [...options.types] });
  const docs = await cachedFind(Track, { filter, sort: NEWEST_FIRST, limit: options.limit });
  return docs.map(toTrackJSON);
}

export async function getTrack(id: number): Promise<TrackJSON | null> {
  const doc = await cachedFindOne(Track, { filter: { id } });
  return doc ? toTrackJSON(doc) : null;
}

/** The public side's reads: each track as `viewer` may see it (members-only ones locked). */
export async function listTracksFor(
  viewer: Viewer,
  options: Parameters<typeof listTracks>[0] = {},
): Promise<TrackView[]> {
  return (await listTracks(options)).map((t) => trackFor(viewer, t));
}

export async function getTrackFor(viewer: Viewer, id: number): Promise<TrackView | null> {
  const track = await getTrack(id);
  return track ? trackFor(viewer, track) : null;
}

export async function getFeaturedTrackFor(
  viewer: Viewer,
  now: Date = new Date(),
): Promise<TrackView | null> {
  const track = await getFeaturedTrack(now);
  return track ? trackFor(viewer, track) : null;
}

/**
 * Who may have the audio file at this /uploads URL (decision 035): 'admin' for a track's kept
 * original and for the upload of a track still processing (or failed); 'members' when every
 * track that streams it is members-only today; 'public' otherwise, files no track uses included.
 */
export async function audioAccess(
  url: string,
  today: string = siteToday(),
): Promise<'public' | 'members' | 'admin'> {
  const originals = await cachedFind(Track, { filter: { originalAudioFile: url }, fields: ['id'] });
  if (originals.length > 0) return 'admin';
  const docs = await cachedFind(Track, { filter: { audioFile: url } });
  if (docs.length === 0) return 'public';
  if (docs.every((doc) => (doc.audioStatus ?? 'ready') !== 'ready')) return 'admin';
  return docs.every((doc) => isMembersOnly(toTrackJSON(doc), today)) ? 'members' : 'public';
}

/**
 * The featured track: the first featured one in list order, or, with weekly rotation on,
 * this week's pick (rotates every Monday at midnight, America/New_York; computed on read).
 */
export async function getFeaturedTrack(now: Date = new Date()): Promise<TrackJSON | null> {
  const theme = await getTheme();
  if (theme.weeklyRotation) {
    // This week's track by position in id order: a count and one record, not the catalogue.
    const count = await countRecords(Track);
    if (count === 0) return null;
    const week = siteWeekNumber(now);
    const page = await findNumberedPage(Track, {
      sort: { id: 1 },
      page: (((week % count) + count) % count) + 1,
      perPage: 1,
      total: count,
    });
    return page.items[0] ? toTrackJSON(page.items[0]) : null;
  }
  const doc = await cachedFindOne(Track, { filter: { featured: true }, sort: NEWEST_FIRST });
  return doc ? toTrackJSON(doc) : null;
}

/** From the collection's metadata (issue 37). */
export const countTracks = () => countRecords(Track);

/**
 * One page of the back office's grid, newest first (issue 37): `featured` is the Featured
 * Tracks tab (indexed `{ featured: 1, createdAt: -1, id: -1 }`), `q` a case-insensitive
 * substring of title, artist or album (as `listTracks`).
 */
export async function pageTracks(options: {
  q?: string;
  featured?: boolean;
  page: number;
  perPage: number;
}): Promise<NumberedPage<TrackJSON>> {
  const filter: Record<string, unknown> = {};
  if (options.featured !== undefined) filter.featured = options.featured;
  const q = options.q?.trim();
  if (q) {
    const re = new RegExp(escapeRegExp(q), 'i');
    filter.$or = [{ title: re }, { artist: re }, { album: re }];
  }
  const found = await findNumberedPage(Track, {
    filter,
    sort: NEWEST_FIRST,
    page: options.page,
    perPage: options.perPage,
  });
  return { ...found, items: found.items.map(toTrackJSON) };
}

export type TrackStatsRow = Pick<TrackJSON, 'id' | 'title' | 'audioFile' | 'type'>;

/**
 * The statistics' view of some tracks (issue 37: the dashboard names only the tracks its
 * period's figures name): those with one of these ids or audio files, plus the `recentMixes`
 * newest mixes (the mixes table lists them even when unplayed). Projected, never the catalogue.
 */
export async function listTracksForStats(options: {
  ids: readonly number[];
  audioFiles: readonly string[];
  recentMixes: number;
}): Promise<TrackStatsRow[]> {
  const fields = { id: 1, title: 1, audioFile: 1, type: 1, _id: 0 } as const;
  const [named, mixes] = await Promise.all([
    options.ids.length + options.audioFiles.length === 0
      ? []
      : Track.find(
          {
            $or: [
              { id: mongoose.trusted({ $in: [...options.ids] }) },
              { audioFile: mongoose.trusted({ $in: [...options.audioFiles] }) },
            ],
          },
          fields,
        ).lean<TrackStatsRow[]>(),
    Track.find({ type: mongoose.trusted({ $in: [...MIX_TYPES] }) }, fields)
      .sort(NEWEST_FIRST)
      .limit(options.recentMixes)
      .lean<TrackStatsRow[]>(),
  ]);
  const byId = new Map<number, TrackStatsRow>();
  for (const t of [...mixes, ...named]) byId.set(t.id, { ...t, type: t.type ?? 'Single' });
  return [...byId.values()].sort((a, b) => b.id - a.id);
}

// --- the API's list, read in pages (issue 37, decision 045) ---

/** The fields `toTrackJSON` reads (a projection: never the original upload or its error). */
export const TRACK_JSON_FIELDS = [
  'id',
  'title',
  'artist',
  'album',
  'type',
  'duration',
  'durationSeconds',
  'description',
  'tracklist',
  'coverImage',
  'audioFile',
  'audioStatus',
  'featured',
  'visibility',
  'publicAt',
  'createdAt',
] as const;

/** GET /api/tracks: every track, newest first (index `{ createdAt: -1, id: -1 }`). */
export const trackList = (): RecordList<TrackDoc> => ({
  model: Track,
  sort: NEWEST_FIRST,
  fields: TRACK_JSON_FIELDS,
});

/** A track read through `trackList`, as `viewer` may see it. */
export const trackViewOf = (viewer: Viewer, doc: TrackDoc): TrackView =>
  trackFor(viewer, toTrackJSON(doc));
