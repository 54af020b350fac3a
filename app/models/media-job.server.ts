import { randomBytes } from 'node:crypto';

import mongoose, { Schema, type Types } from 'mongoose';

import { defineModel } from './model-helpers.server';

/**
 * The media job queue (docs/decisions/035-transcoding-and-peaks.md), on the pattern of the mail
 * queue (016): one document per uploaded audio file of a track, in MongoDB, so the work survives
 * a crash and any instance may do it.
 *
 * - `queued`: waiting until `notBefore` (now, or the next retry).
 * - `running`: claimed by one instance (`claimedBy`) until `notBefore` (the lease, renewed
 *   while it works). An instance that dies leaves it there; once the lease has passed, any
 *   instance claims it again and does it over. Doing it over is harmless: every write of a
 *   job is idempotent (the stream goes to the job's own `streamUrl`, the peaks are one
 *   document per track, the track is updated only while it still holds `source`).
 * - `done`, `failed`, `skipped` (the track was deleted or its audio replaced): finished.
 *
 * Only queued and running jobs have a `notBefore`, so the claim is one step down an index.
 */
export const MEDIA_JOB_STATES = ['queued', 'running', 'done', 'failed', 'skipped'] as const;
export type MediaJobState = (typeof MEDIA_JOB_STATES)[number];

export type MediaJobDoc = {
  _id: Types.ObjectId;
  kind: 'track-audio';
  trackId: number;
  /** The uploaded file (`/uploads/audio/…`) the job works from. */
  source: string;
  /** Where its 192 kbps stream goes when it needs one: fixed when queued, so a re-run overwrites. */
  streamUrl: string;
  /** True: the upload gets a stream of its own (a WAV, an MP3 above 320 kbps); else peaks only. */
  transcode: boolean;
  state: MediaJobState;
  attempts: number;
  notBefore?: Date;
  claimedBy?: string;
  lastError?: string;
  finishedAt?: Date;
  createdAt: Date;
};

const MediaJobSchema = new Schema<MediaJobDoc>(
  {
    kind: { type: String, enum: ['track-audio'], required: true },
    trackId: { type: Number, required: true },
    source: { type: String, required: true },
    streamUrl: { type: String, required: true },
    transcode: { type: Boolean, required: true },
    state: { type: String, enum: MEDIA_JOB_STATES, required: true, default: 'queued' },
    attempts: { type: Number, required: true, default: 0 },
    notBefore: Date,
    claimedBy: String,
    lastError: String,
    finishedAt: Date,
  },
  { timestamps: { createdAt: true, updatedAt: false }, versionKey: false },
);
MediaJobSchema.index({ notBefore: 1 });
// One job per uploaded file of a track: queuing it twice is a no-op.
MediaJobSchema.index({ trackId: 1, source: 1 }, { unique: true });

export const MediaJob = defineModel<MediaJobDoc>('MediaJob', MediaJobSchema, 'media_jobs');

/** A fresh stream URL for an upload (random: a stream's name says nothing about its original). */
export const newStreamUrl = () => `/uploads/audio/${randomBytes(16).toString('hex')}.mp3`;

/**
 * Queue the processing of `source`, the audio file `trackId` now holds, due now. Safe to call
 * again for the same file (the first job stays).
 */
export async function enqueueTrackAudioJob(
  trackId: number,
  source: string,
  transcode: boolean,
): Promise<void> {
  await MediaJob.updateOne(
    { trackId, source },
    {
      $setOnInsert: {
        kind: 'track-audio',
        trackId,
        source,
        streamUrl: newStreamUrl(),
        transcode,
        state: 'queued',
        attempts: 0,
        notBefore: new Date(),
        createdAt: new Date(),
      },
    },
    { upsert: true },
  );
}

/** Claim the oldest due job for `workerId`, atomically; an expired lease makes a job due again. */
export async function claimMediaJob(
  workerId: string,
  leaseMs: number,
  now = new Date(),
): Promise<MediaJobDoc | null> {
  return MediaJob.findOneAndUpdate(
    {
      state: mongoose.trusted({ $in: ['queued', 'running'] }),
      notBefore: mongoose.trusted({ $lte: now }),
    },
    {
      $set: { state: 'running', claimedBy: workerId, notBefore: new Date(now.getTime() + leaseMs) },
      $inc: { attempts: 1 },
    },
    { sort: { notBefore: 1 }, returnDocument: 'after' },
  ).lean<MediaJobDoc>();
}

/** Keep the claim while working (a long transcode outlives one lease); false when it was lost. */
export async function renewMediaJobLease(
  id: Types.ObjectId,
  workerId: string,
  leaseMs: number,
): Promise<boolean> {
  const result = await MediaJob.updateOne(
    { _id: id, state: 'running', claimedBy: workerId },
    { $set: { notBefore: new Date(Date.now() + leaseMs) } },
  );
  return result.matchedCount === 1;
}

async function finish(id: Types.ObjectId, workerId: string, set: Partial<MediaJobDoc>) {
  await MediaJob.updateOne(
    { _id: id, state: 'running', claimedBy: workerId },
    { $set: { ...set, finishedAt: new Date() }, $unset: { claimedBy: 1, notBefore: 1 } },
  );
}

export const markMediaJobDone = (id: Types.ObjectId, workerId: string) =>
  finish(id, workerId, { state: 'done' });

export const markMediaJobSkipped = (id: Types.ObjectId, workerId: string, reason: string) =>
  finish(id, workerId, { state: 'skipped', lastError: reason.slice(0, 1000) });

export const markMediaJobFailed = (id: Types.ObjectId, workerId: string, reason: string) =>
  finish(id, workerId, { state: 'failed', lastError: reason.slice(0, 1000) });

/** A temporary failure: queued again, due at `at`. */
export async function markMediaJobRetry(
  id: Types.ObjectId,
  workerId: string,
  reason: string,
  at: Date,
): Promise<void> {
  await MediaJob.updateOne(
    { _id: id, state: 'running', claimedBy: workerId },
    {
      $set: { state: 'queued', notBefore: at, lastError: reason.slice(0, 1000) },
      $unset: { claimedBy: 1 },
    },
  );
}

/** Give a claim back untouched (this instance is stopping): due again now, attempt not counted. */
export async function releaseMediaJob(id: Types.ObjectId, workerId: string): Promise<void> {
  await MediaJob.updateOne(
    { _id: id, state: 'running', claimedBy: workerId },
    {
      $set: { state: 'queued', notBefore: new Date() },
      $unset: { claimedBy: 1 },
      $inc: { attempts: -1 },
    },
  );
}

/** The jobs of a track, newest first (the admin's view of its processing). */
export async function listMediaJobsOf(trackId: number): Promise<MediaJobDoc[]> {
  return MediaJob.find({ trackId }).sort({ _id: -1 }).limit(20).lean<MediaJobDoc[]>();
}

/** True when no job is waiting or running (tests, the one-off script and the benchmark wait for it). */
export async function mediaQueueIsEmpty(): Promise<boolean> {
  const next = await MediaJob.findOne(
    { notBefore: mongoose.trusted({ $gte: new Date(0) }) },
    { _id: 1 },
  ).lean();
  return next === null;
}

/** A deleted track's jobs go with it (a running one finds its track gone and skips). */
export async function deleteQueuedMediaJobsOf(trackId: number): Promise<void> {
  await MediaJob.deleteMany({ trackId, state: 'queued' });
}
