import crypto from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

import { mediaKeyFromUrl, mediaStore } from '~/files/media-store.server';
import { deleteUploadedFile } from '~/files/stored-files.server';
import {
  claimMediaJob,
  markMediaJobDone,
  markMediaJobFailed,
  markMediaJobRetry,
  markMediaJobSkipped,
  type MediaJobDoc,
  releaseMediaJob,
  renewMediaJobLease,
} from '~/models/media-job.server';
import { completeTrackAudio, failTrackAudio, getTrackAudio } from '~/models/track-audio.server';
import { deleteTrackPeaksOf, getTrackPeaks, saveTrackPeaks } from '~/models/track-peaks.server';
import { DurableQueue, processWorker, retryAt } from '~/platform/durable-queue.server';
import { env, uploadsDir } from '~/platform/env.server';
import { logger } from '~/platform/logger.server';

import {
  type MediaJobLimits,
  processAudioInThread,
  ThreadFailure,
  type ThreadRun,
} from './run-in-thread.server';
import type { ProcessResult } from './transcode.server';

/**
 * Does what the media queue holds (app/models/media-job.server.ts, decision 035), on every
 * app instance, through the durable-queue runner (~/platform/durable-queue.server):
 * `concurrency` loops (MEDIA_CONCURRENCY, 1 by default), each claiming one due job at a
 * time with a lease, running it in a process of its own (decode, peaks, 192 kbps MP3 when
 * needed; within its time and memory limits, decision 046), and recording the outcome on the
 * track. The lease is renewed while the job's process works; a job whose instance died is
 * claimed again once its lease runs out and done over (each step is
 * idempotent, so the effect is once: one stream, one peaks document, the track ready).
 * A file that cannot be decoded, or whose job goes past its limits, fails at once (the track
 * says why to admins and keeps its upload); anything else is retried with exponential backoff
 * up to `maxAttempts`.
 * `stop()` ends the job processes in flight and gives their jobs back, due at once.
 */
export type MediaWorkerOptions = {
  concurrency: number;
  leaseMs: number;
  retryMs: number;
  maxAttempts: number;
  pollMs: number;
  /** Every job's wall-clock and memory limits (./run-in-thread.server.ts). */
  limits: MediaJobLimits;
};

type Holds = 'source' | 'stream' | null;

/** What the track holds of this job's files: its upload, the finished stream, or neither. */
function holds(
  track: Awaited<ReturnType<typeof getTrackAudio>>,
  job: Pick<MediaJobDoc, 'source' | 'streamUrl'>,
): Holds {
  if (!track) return null;
  if (track.audioFile === job.source) return 'source';
  if (track.audioFile === job.streamUrl && track.originalAudioFile === job.source) return 'stream';
  return null;
}

export class MediaWorker {
  private readonly queue: DurableQueue<MediaJobDoc>;
  readonly id: string;
  private threads = new Map<string, ThreadRun>();

  constructor(readonly options: MediaWorkerOptions) {
    this.queue = new DurableQueue({
      concurrency: options.concurrency,
      leaseMs: options.leaseMs,
      pollMs: options.pollMs,
      claim: claimMediaJob,
      handle: (job) => this.run(job),
      // The database is unreachable: the claim (if any) runs out and the job is done again.
      onError: (error) => logger.error({ err: error }, 'media worker'),
      // The job processes in flight end; their jobs are given back (see `run`).
      beforeDrain: async () => {
        await Promise.all([...this.threads.values()].map((t) => t.terminate()));
      },
    });
    this.id = this.queue.id;
  }

  start(): void {
    this.queue.start();
  }

  /** Stop claiming, end the job processes in flight and give their jobs back (due now). */
  async stop(): Promise<void> {
    await this.queue.stop();
  }

  /** Something was queued here: look now rather than at the next poll. */
  kick(): void {
    this.queue.kick();
  }

  private async run(job: MediaJobDoc): Promise<void> {
    const log = logger.child({ mediaJob: String(job._id), trackId: job.trackId });
    if (job.attempts > this.options.maxAttempts) {
      await this.fail(job, `Gave up after ${this.options.maxAttempts} attempts`);
      return;
    }
    const track = await getTrackAudio(job.trackId);
    const held = holds(track, job);
    if (held === null) {
      await this.discardOutputs(job);
      await markMediaJobSkipped(job._id, this.id, 'The track was deleted or its audio replaced');
      log.info('media job skipped: the track no longer holds its file');
      return;
    }
    const finalUrl = job.transcode ? job.streamUrl : job.source;
    if (held === 'stream' && (await getTrackPeaks(job.trackId, finalUrl))) {
      // Finished before a crash, only not marked so.
      await markMediaJobDone(job._id, this.id);
      return;
    }

    log.info({ source: job.source, transcode: job.transcode }, 'media job started');
    const started = Date.now();
    let result: ProcessResult;
    let peakRssMb = 0;
    const temp: string[] = [];
    try {
      const input = await this.localCopy(job.source, temp);
      const output = job.transcode ? this.tempPath(temp) : null;
      ({ result, peakRssMb } = await this.inThread(job, input, output));
      if (output) await this.store(job.streamUrl, output);
    } catch (error) {
      await Promise.all(temp.map((file) => fs.rm(file, { force: true })));
      if (!this.queue.running) {
        // Stopped mid-job (shutdown): give it back untouched, due now.
        await releaseMediaJob(job._id, this.id);
        return;
      }
      await this.failedAttempt(job, error);
      return;
    }
    await Promise.all(temp.map((file) => fs.rm(file, { force: true })));

    // The track may have changed while the job's process worked.
    if (holds(await getTrackAudio(job.trackId), job) === null) {
      await this.discardOutputs(job);
      await markMediaJobSkipped(job._id, this.id, 'The track was deleted or its audio replaced');
      return;
    }
    await saveTrackPeaks(job.trackId, finalUrl, result.peaks);
    const completed = await completeTrackAudio(
      job.trackId,
      job.source,
      job.transcode ? job.streamUrl : null,
    );
    if (!completed) {
      await this.discardOutputs(job);
      await markMediaJobSkipped(job._id, this.id, 'The track was deleted or its audio replaced');
      return;
    }
    await markMediaJobDone(job._id, this.id);
    const seconds = (Date.now() - started) / 1000;
    log.info(
      {
        transcoded: result.transcoded,
        durationSeconds: Math.round(result.durationSeconds),
        points: result.peaks.length,
        seconds,
        peakRssMb,
        realTime: seconds > 0 ? Math.round(result.durationSeconds / seconds) : null,
      },
      'media job done',
    );
  }

  /** Run the job's process, renewing the lease; a lost lease (taken over elsewhere) ends it. */
  private async inThread(job: MediaJobDoc, input: string, output: string | null) {
    const thread = processAudioInThread(input, output, this.options.limits);
    const key = String(job._id);
    this.threads.set(key, thread);
    try {
      const result = await this.queue.whileLeased(
        thread.result,
        (workerId, leaseMs) => renewMediaJobLease(job._id, workerId, leaseMs),
        () => void thread.terminate(),
      );
      return { result, peakRssMb: Math.round(thread.peakRss() / 2 ** 20) };
    } finally {
      this.threads.delete(key);
    }
  }

  private tempPath(temp: string[]): string {
    const file = path.join(
      uploadsDir(),
      'audio',
      `.media-${crypto.randomBytes(8).toString('hex')}.part`,
    );
    temp.push(file);
    return file;
  }

  /** The upload as a local file: on disk it is one; from GridFS it is copied to a temp file. */
  private async localCopy(url: string, temp: string[]): Promise<string> {
    const key = mediaKeyFromUrl(url);
    if (!key) throw new ThreadFailure(`Not an uploaded file: ${url}`, true);
    const store = mediaStore();
    if (store.kind === 'disk') return path.join(uploadsDir(), ...key.split('/'));
    const file = this.tempPath(temp);
    await pipeline(await store.open(key), createWriteStream(file));
    return file;
  }

  /** The finished stream into the store at its URL (overwriting a copy from an earlier run). */
  private async store(url: string, file: string): Promise<void> {
    const key = mediaKeyFromUrl(url)!;
    const store = mediaStore();
    if (store.kind === 'gridfs') await store.delete(key);
    await store.put(key, file);
  }

  /** A job that no longer applies leaves nothing behind: its stream and the peaks it wrote. */
  private async discardOutputs(job: MediaJobDoc): Promise<void> {
    if (job.transcode) {
      await deleteUploadedFile(job.streamUrl);
      await deleteTrackPeaksOf(job.trackId, job.streamUrl);
    } else await deleteTrackPeaksOf(job.trackId, job.source);
  }

  private async failedAttempt(job: MediaJobDoc, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    const permanent = error instanceof ThreadFailure && error.permanent;
    if (permanent || job.attempts >= this.options.maxAttempts) {
      await this.fail(
        job,
        permanent ? message : `Gave up after ${job.attempts} attempts: ${message}`,
        permanent,
      );
      return;
    }
    logger.warn({ trackId: job.trackId, err: error }, 'media job failed; retrying');
    await markMediaJobRetry(job._id, this.id, message, retryAt(this.options.retryMs, job.attempts));
  }

  private async fail(job: MediaJobDoc, reason: string, permanent = false): Promise<void> {
    // A file that cannot be decoded is the upload's fault, not the server's.
    (permanent ? logger.warn : logger.error).call(
      logger,
      { trackId: job.trackId, reason },
      'media job failed',
    );
    await this.discardOutputs(job);
    await failTrackAudio(job.trackId, job.source, reason);
    await markMediaJobFailed(job._id, this.id, reason);
  }
}

/** A worker configured from the environment. */
export function createMediaWorker(overrides: Partial<MediaWorkerOptions> = {}): MediaWorker {
  return new MediaWorker({
    concurrency: env.MEDIA_CONCURRENCY,
    leaseMs: env.MEDIA_LEASE_SECONDS * 1000,
    retryMs: env.MEDIA_RETRY_SECONDS * 1000,
    maxAttempts: env.MEDIA_MAX_ATTEMPTS,
    pollMs: 1000,
    limits: {
      baseSeconds: env.MEDIA_TIME_LIMIT_SECONDS,
      secondsPerMb: env.MEDIA_TIME_LIMIT_SECONDS_PER_MB,
      secondsPerAudioMinute: env.MEDIA_TIME_LIMIT_SECONDS_PER_AUDIO_MINUTE,
      memoryMb: env.MEDIA_MEMORY_LIMIT_MB,
    },
    ...overrides,
  });
}

const processMediaWorker = processWorker('media', () => createMediaWorker());

/** This process's worker, started once (app start-up). */
export const startMediaWorker = processMediaWorker.start;

/** Stop this process's worker (graceful shutdown), if it runs. */
export const stopMediaWorker = processMediaWorker.stop;

/** Tell this process's worker that a job was queued. */
export const kickMediaWorker = processMediaWorker.kick;
