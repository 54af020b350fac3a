import { Schema } from 'mongoose';

import type { PeaksJSON } from '~/types/peaks';

import { cachedFindOne, defineModel } from './model-helpers.server';

/**
 * One waveform per track, computed from its audio when it is uploaded (or by
 * `npm run media:peaks` for older tracks). Kept apart from the track so that lists of tracks
 * never carry the peaks; `audioFile` says which file they were computed from.
 */
type TrackPeaksDoc = { trackId: number; audioFile: string; peaks: PeaksJSON; createdAt: Date };

const TrackPeaksSchema = new Schema<TrackPeaksDoc>(
  {
    trackId: { type: Number, required: true, unique: true },
    audioFile: { type: String, required: true },
    peaks: { type: Schema.Types.Mixed, required: true },
  },
  { timestamps: { createdAt: true, updatedAt: false } },
);

export const TrackPeaks = defineModel<TrackPeaksDoc>('TrackPeaks', TrackPeaksSchema, 'track_peaks');

/** The waveform of this track's current audio file, or null when none has been computed. */
export async function getTrackPeaks(trackId: number, audioFile: string): Promise<PeaksJSON | null> {
  const doc = await cachedFindOne(TrackPeaks, { filter: { trackId, audioFile } });
  return doc ? doc.peaks : null;
}

/** Store (or replace) the waveform computed from `audioFile`. */
export async function saveTrackPeaks(
  trackId: number,
  audioFile: string,
  peaks: PeaksJSON,
): Promise<void> {
  await TrackPeaks.updateOne(
    { trackId },
    { $set: { audioFile, peaks, createdAt: new Date() } },
    { upsert: true },
  );
}

export async function deleteTrackPeaks(trackId: number): Promise<void> {
  await TrackPeaks.deleteOne({ trackId });
}

/** Remove the waveform only if it is the one computed from `audioFile` (a stale job's). */
export async function deleteTrackPeaksOf(trackId: number, audioFile: string): Promise<void> {
  await TrackPeaks.deleteOne({ trackId, audioFile });
}
