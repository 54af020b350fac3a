import crypto from 'node:crypto';

import mongoose, { Schema } from 'mongoose';

import { deleteUploadedFile } from '~/files/stored-files.server';
import { env } from '~/platform/env.server';
import { logger } from '~/platform/logger.server';
import { isLoopbackHostname, siteOrigin } from '~/platform/site-origin.server';
import { LEGACY_TRACK_TYPES, MIX_TYPES, TRACK_TYPES } from '~/schemas/track';
import type { AudioStatus, TrackJSON, TracklistRow, TrackView, Visibility } from '~/types/entities';
import { isMembersOnly, trackFor, type Viewer } from '~/utils/access';
import { parseClock } from '~/utils/media-time';
import { escapeRegExp } from '~/utils/regexp';
import { siteToday, siteWeekNumber } from '~/utils/time';

import { serialIdPlugin } from './counter.server';
import { deleteQueuedMediaJobsOf, enqueueTrackAudioJob } from './media-job.server';
import { cachedFind, cachedFindOne, defineModel, iso } from './model-helpers.server';
import {
  countRecords,
  findNumberedPage,
  type NumberedPage,
  type RecordList,
  streamRecords,
} from './paging.server';
import { getTheme } from './theme.server';
import { deleteTrackPeaks } from './track-peaks.server';

type TrackDoc = {
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

const NEWEST_FIRST = { createdAt: -1, id: -1 } as const;

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
 * At start: every track still waiting for its stream has a job (createTrack writes the track,
 * then its job; a crash between the two would leave it waiting for ever).
 */
export async function requeueWaitingTracks(): Promise<number> {
  const waiting = await Track.find({ audioStatus: 'processing' }, { id: 1, audioFile: 1 }).lean();
  for (const t of waiting) await enqueueTrackAudioJob(t.id, t.audioFile, true);
  return waiting.length;
}

/** What the admin sees of a track's audio processing. */
export type TrackAudioAdmin = {
  audioStatus: AudioStatus;
  audioError: string | null;
  originalAudioFile: string | null;
};

export async function getTrackAudioAdmin(id: number): Promise<TrackAudioAdmin | null> {
  const doc = await Track.findOne(
    { id },
    { audioStatus: 1, audioError: 1, originalAudioFile: 1 },
  ).lean();
  if (!doc) return null;
  return {
    audioStatus: doc.audioStatus ?? 'ready',
    audioError: doc.audioError ?? null,
    originalAudioFile: doc.originalAudioFile ?? null,
  };
}

/** Why each failed track's processing failed, by track id (the admin list). */
export async function listTrackAudioFailures(): Promise<Record<number, string>> {
  const docs = await Track.find({ audioStatus: 'failed' }, { id: 1, audioError: 1 }).lean();
  return Object.fromEntries(docs.map((d) => [d.id, d.audioError ?? '']));
}

/** The audio fields a media job reads and writes. */
export async function getTrackAudio(
  id: number,
): Promise<Pick<TrackDoc, 'audioFile' | 'originalAudioFile' | 'audioStatus'> | null> {
  return Track.findOne({ id }, { audioFile: 1, originalAudioFile: 1, audioStatus: 1 }).lean();
}

/**
 * A media job is done with `source`: the track streams `streamUrl` (null: the upload itself)
 * and keeps `source` as its original (the duration stays the one the save flow read from the
 * same file, or the admin typed). Only while the track still holds `source` (or, on a
 * re-run after a crash, already streams `streamUrl`): false when it was deleted or its audio
 * replaced meanwhile.
 */
export async function completeTrackAudio(
  id: number,
  source: string,
  streamUrl: string | null,
): Promise<boolean> {
  const set = {
    audioStatus: 'ready',
    audioError: null,
    ...(streamUrl ? { audioFile: streamUrl, originalAudioFile: source } : {}),
  };
  const filter = streamUrl
    ? { id, $or: [{ audioFile: source }, { audioFile: streamUrl, originalAudioFile: source }] }
    : { id, audioFile: source };
  const result = await Track.updateOne(mongoose.trusted(filter), { $set: set });
  return result.matchedCount === 1;
}

/** The job gave up: the track keeps its upload, and admins see why. */
export async function failTrackAudio(id: number, source: string, reason: string): Promise<boolean> {
  const result = await Track.updateOne(
    { id, audioFile: source },
    { $set: { audioStatus: 'failed', audioError: reason.slice(0, 500) } },
  );
  return result.matchedCount === 1;
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

export type TrackWrite = {
  title: string;
  artist?: string | null;
  album?: string | null;
  type?: string;
  duration: string;
  durationSeconds?: number | null;
  description?: string | null;
  tracklist?: TracklistRow[];
  coverImage: string;
  audioFile: string;
  /**
   * With a new audio file: 'processing' when it needs a stream of its own (a WAV, an MP3 above
   * 320 kbps; the save flow decides), 'ready' (default) when it is streamed as it is. Either
   * way a media job computes its peaks (and its stream).
   */
  audioStatus?: 'processing' | 'ready';
  featured?: boolean;
  visibility?: Visibility;
  publicAt?: string | null;
};

export async function createTrack(input: TrackWrite): Promise<TrackJSON> {
  const doc = await Track.create({
    ...input,
    artist: input.artist?.trim() || env.SITE_NAME,
    album: input.album?.trim() || null,
    publicAt: input.visibility === 'members' ? (input.publicAt ?? null) : null,
    audioStatus: input.audioStatus ?? 'ready',
  });
  await enqueueTrackAudioJob(doc.id, doc.audioFile, doc.audioStatus === 'processing');
  return toTrackJSON(doc.toObject());
}

/** Update a track; replaced files are deleted after the write succeeds. */
export async function updateTrack(
  id: number,
  input: Partial<TrackWrite>,
): Promise<TrackJSON | null> {
  const before = await Track.findOne({ id }).lean();
  if (!before) return null;
  const set: Record<string, unknown> = { ...input };
  if ('artist' in input) set.artist = input.artist?.trim() || env.SITE_NAME;
  if ('album' in input) set.album = input.album?.trim() || null;
  if (input.visibility === 'public') set.publicAt = null;
  const newAudio = Boolean(input.audioFile && input.audioFile !== before.audioFile);
  if (newAudio) {
    set.audioStatus = input.audioStatus ?? 'ready';
    set.audioError = null;
    set.originalAudioFile = null;
  } else delete set.audioStatus;
  const after = await Track.findOneAndUpdate(
    { id },
    { $set: set },
    { returnDocument: 'after' },
  ).lean();
  if (!after) return null;
  if (input.coverImage && input.coverImage !== before.coverImage)
    await deleteUploadedFile(before.coverImage);
  if (newAudio) {
    // The old stream, its original and its waveform go; the new upload gets its own job.
    await deleteUploadedFile(before.audioFile);
    await deleteUploadedFile(before.originalAudioFile);
    await deleteTrackPeaks(id);
    await enqueueTrackAudioJob(id, after.audioFile, after.audioStatus === 'processing');
  }
  return toTrackJSON(after);
}

export async function setTrackFeatured(id: number, featured: boolean): Promise<TrackJSON | null> {
  const after = await Track.findOneAndUpdate(
    { id },
    { $set: { featured } },
    { returnDocument: 'after' },
  ).lean();
  return after ? toTrackJSON(after) : null;
}

/** Randomize Featured: exactly one track, chosen at random, ends up featured. */
export async function randomizeFeaturedTrack(
  random: () => number = Math.random,
): Promise<TrackJSON | null> {
  const ids = (await Track.find({}, { id: 1 }).lean()).map((t) => t.id);
  if (ids.length === 0) return null;
  const chosen = ids[Math.floor(random() * ids.length)];
  await Track.updateMany({ id: mongoose.trusted({ $ne: chosen }) }, { $set: { featured: false } });
  const after = await Track.findOneAndUpdate(
    { id: chosen },
    { $set: { featured: true } },
    { returnDocument: 'after' },
  ).lean();
  return after ? toTrackJSON(after) : null;
}

export async function deleteTrack(id: number): Promise<TrackJSON | null> {
  const doc = await Track.findOneAndDelete({ id }).lean();
  if (!doc) return null;
  await deleteUploadedFile(doc.coverImage);
  await deleteUploadedFile(doc.audioFile);
  await deleteUploadedFile(doc.originalAudioFile);
  await deleteTrackPeaks(id);
  await deleteQueuedMediaJobsOf(id);
  return toTrackJSON(doc);
}

/** From the collection's metadata (issue 37). */
export const countTracks = () => countRecords(Track);

/**
 * Tracks stored before the release types were Single, EP, Album, Mix, Live set and Radio show
 * get the new name of their type: Remix → Single, Live → Live set; any other unknown type
 * (or none) → Single (decision 034). Run at start; idempotent, so several instances may run it
 * at once. Answers how many tracks changed.
 */
export async function migrateTrackTypes(): Promise<number> {
  let changed = 0;
  for (const [legacy, type] of Object.entries(LEGACY_TRACK_TYPES)) {
    changed += (await Track.updateMany({ type: legacy }, { $set: { type } })).modifiedCount;
  }
  const others = await Track.updateMany(
    { type: mongoose.trusted({ $nin: [...TRACK_TYPES] }) },
    { $set: { type: 'Single' } },
  );
  return changed + others.modifiedCount;
}

/** A mix as the podcast feeds list it: the track and its episode's GUID. */
export type PodcastMix = TrackJSON & { podcastGuid: string };

/** Every long-form set (type in MIX_TYPES), newest first: the podcast feeds' episodes. */
export async function listMixes(): Promise<PodcastMix[]> {
  const read = () =>
    cachedFind(Track, {
      filter: { type: mongoose.trusted({ $in: [...MIX_TYPES] }) },
      sort: NEWEST_FIRST,
    });
  let docs = await read();
  // A track written without one since the start (a restore, a raw insert) gets it here, by the
  // same rule and the same only-if-absent writes as at start.
  if (docs.some((d) => !d.podcastGuid)) {
    await migrateTrackGuids();
    docs = await read();
  }
  return docs
    .filter((d): d is typeof d & { podcastGuid: string } => Boolean(d.podcastGuid))
    .map((d) => ({ ...toTrackJSON(d), podcastGuid: d.podcastGuid }));
}

/**
 * Tracks stored before GUIDs were (decision 037) get one, once. Their episodes went out with
 * `{host}:track:{id}`, the host being SITE_URL's: where that is a real host, podcast apps may
 * hold that GUID, so it is kept as it was; where it names this machine (SITE_URL unset, or
 * localhost/loopback: every fresh clone's demo content) nothing was published, and the track
 * gets a host-free one like a new track.
 *
 * Run at start, before the server answers. Reads only the tracks without a GUID, through a
 * cursor, and writes in batches; each write applies only while the track still has none, so
 * several instances starting together (or a second run) change nothing another has set.
 * Answers how many tracks got one.
 */
export async function migrateTrackGuids(
  options: { origin?: string; batchSize?: number } = {},
): Promise<number> {
  const origin = new URL(options.origin ?? siteOrigin());
  const published = !isLoopbackHostname(origin.hostname);
  const batchSize = options.batchSize ?? 500;
  const missing = { podcastGuid: null };
  type Op = { updateOne: { filter: object; update: object; timestamps: false } };
  let batch: Op[] = [];
  let changed = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const ops = batch;
    batch = [];
    changed += (await Track.bulkWrite(ops, { ordered: false })).modifiedCount;
  };
  const cursor = Track.find(missing, { _id: 1, id: 1 }).lean().cursor({ batchSize });
  try {
    for await (const doc of cursor) {
      const podcastGuid = published ? `${origin.host}:track:${doc.id}` : newPodcastGuid();
      batch.push({
        updateOne: {
          filter: { _id: doc._id, ...missing },
          update: { $set: { podcastGuid } },
          // A GUID is not an edit: updatedAt stays.
          timestamps: false,
        },
      });
      if (batch.length >= batchSize) await flush();
    }
    await flush();
  } finally {
    await cursor.close();
  }
  if (changed > 0) {
    logger.info(
      published
        ? `podcast: ${changed} track(s) keep the GUID they were published with (${origin.host}:track:{id})`
        : `podcast: ${changed} track(s) got a host-free GUID`,
    );
  }
  return changed;
}

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

/** Why each of these failed tracks' processing failed, by track id (one page of the admin list). */
export async function trackAudioFailuresOf(
  ids: readonly number[],
): Promise<Record<number, string>> {
  if (ids.length === 0) return {};
  const docs = await Track.find(
    { id: mongoose.trusted({ $in: [...ids] }), audioStatus: 'failed' },
    { id: 1, audioError: 1 },
  ).lean();
  return Object.fromEntries(docs.map((d) => [d.id, d.audioError ?? '']));
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

// --- the API's list and the podcast feed, read in pages or streamed (issue 37, decision 045) ---

/** The fields `toTrackJSON` reads (a projection: never the original upload or its error). */
const TRACK_JSON_FIELDS = [
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

const MIX_FILTER = () => ({ type: mongoose.trusted({ $in: [...MIX_TYPES] }) });

/**
 * Every mix (type in MIX_TYPES), newest first, with its episode GUID, streamed with only the
 * fields a feed prints: the podcast feeds' episodes, built without holding the archive's
 * documents. A mix without a GUID (a restore, a raw insert) is skipped here and given one at
 * once (`migrateTrackGuids`), so the next build of the feed has it.
 */
export async function* streamMixes(): AsyncGenerator<PodcastMix> {
  let missing = false;
  const docs = streamRecords(Track, {
    filter: MIX_FILTER(),
    sort: NEWEST_FIRST,
    fields: [...TRACK_JSON_FIELDS, 'podcastGuid'],
  });
  for await (const doc of docs) {
    if (doc.podcastGuid) yield { ...toTrackJSON(doc), podcastGuid: doc.podcastGuid };
    else missing = true;
  }
  if (missing) await migrateTrackGuids();
}

/** One mix by id (an enclosure or a cover), without reading the others. */
export async function getMix(id: number): Promise<PodcastMix | null> {
  const doc = await cachedFindOne(Track, { filter: { id, ...MIX_FILTER() } });
  if (!doc) return null;
  if (!doc.podcastGuid) {
    await migrateTrackGuids();
    const again = await Track.findOne({ id }, { podcastGuid: 1 }).lean();
    if (!again?.podcastGuid) return null;
    return { ...toTrackJSON(doc), podcastGuid: again.podcastGuid };
  }
  return { ...toTrackJSON(doc), podcastGuid: doc.podcastGuid };
}
