import mongoose from 'mongoose';

import { deleteUploadedFile } from '~/files/stored-files.server';
import { env } from '~/platform/env.server';
import { LEGACY_TRACK_TYPES, TRACK_TYPES } from '~/types/constants';
import type { TrackJSON } from '~/types/entities';

import { deleteQueuedMediaJobsOf, enqueueTrackAudioJob } from './media-job.server';
import { toTrackJSON, Track, type TrackDoc } from './track.server';
import { deleteTrackPeaks } from './track-peaks.server';

/** Writing tracks: create, update, feature, delete, and the start-up migration of types. */

/** A track's fields as a save gives them (artist and type may be left out: defaults). */
export type TrackWrite = Pick<
  TrackDoc,
  | 'title'
  | 'album'
  | 'duration'
  | 'durationSeconds'
  | 'description'
  | 'tracklist'
  | 'coverImage'
  | 'audioFile'
  | 'visibility'
  | 'publicAt'
> & {
  artist?: string | null;
  type?: string;
  /**
   * With a new audio file: 'processing' when it needs a stream of its own (a WAV, an MP3 above
   * 320 kbps; the save flow decides), 'ready' (default) when it is streamed as it is. Either
   * way a media job computes its peaks (and its stream).
   */
  audioStatus?: 'processing' | 'ready';
  featured?: boolean;
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
