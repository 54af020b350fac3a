import mongoose from 'mongoose';

import type { AudioStatus } from '~/types/entities';

import { enqueueTrackAudioJob } from './media-job.server';
import { Track, type TrackDoc } from './track.server';

/**
 * A track's audio processing (decision 035): what the media jobs read and write, and what the
 * admin sees of it.
 */

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
