import fs from 'node:fs';
import path from 'node:path';

import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import type * as MediaWorkerModule from '~/media/worker.server';
import type * as MediaJobModule from '~/models/media-job.server';
import type * as TrackModule from '~/models/track.server';
import type * as TrackAudioModule from '~/models/track-audio.server';
import type * as PeaksModule from '~/models/track-peaks.server';
import type * as TrackWritesModule from '~/models/track-writes.server';

import { setupTestDatabase } from '../helpers/test-db';
import { writeWav } from '../helpers/wav';

/**
 * The media job queue on the embedded store, with real worker threads: a WAV upload becomes a
 * 192 kbps stream with peaks and the track turns ready; claims are exclusive until their lease
 * runs out; temporary failures are retried with backoff, undecodable files fail at once with
 * the reason on the track; a job whose instance died is done by another, once; a deleted track
 * or replaced audio leaves nothing behind.
 */
const { uploadsDir } = setupTestDatabase();

let worker: typeof MediaWorkerModule;
let jobs: typeof MediaJobModule;
let tracks: typeof TrackModule;
let trackWrites: typeof TrackWritesModule;
let trackAudio: typeof TrackAudioModule;
let peaks: typeof PeaksModule;
let running: MediaWorkerModule.MediaWorker | null = null;

beforeAll(async () => {
  worker = await import('~/media/worker.server');
  jobs = await import('~/models/media-job.server');
  tracks = await import('~/models/track.server');
  trackAudio = await import('~/models/track-audio.server');
  trackWrites = await import('~/models/track-writes.server');
  peaks = await import('~/models/track-peaks.server');
});

afterEach(async () => {
  await running?.stop();
  running = null;
});

let n = 0;
/** A WAV in UPLOADS_DIR/audio, as an upload leaves it; answers its URL. */
function uploadWav(
  seconds = 2,
  options: Parameters<typeof writeWav>[1] extends infer S ? Partial<S> : never = {},
) {
  const name = `upload-${++n}-${Date.now()}.wav`;
  writeWav(path.join(uploadsDir, 'audio', name), {
    seconds,
    sampleRate: 22050,
    bursts: [1],
    ...options,
  });
  return `/uploads/audio/${name}`;
}

const fileOf = (url: string) => path.join(uploadsDir, ...url.replace('/uploads/', '').split('/'));

function start(options: Partial<MediaWorkerModule.MediaWorkerOptions> = {}) {
  running = worker.createMediaWorker({ pollMs: 50, leaseMs: 5000, retryMs: 100, ...options });
  running.start();
  return running;
}

async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  ms = 20_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const createWavTrack = (audioFile: string, title = 'Set') =>
  trackWrites.createTrack({
    title,
    duration: '0:02',
    coverImage: '/c.jpg',
    audioFile,
    audioStatus: 'processing',
  });

const jobOf = async (trackId: number) => (await jobs.listMediaJobsOf(trackId))[0]!;

describe('media jobs', () => {
  it('turns a WAV upload into a 192 kbps stream with peaks, keeping the original for admins', async () => {
    const source = uploadWav(3);
    const track = await createWavTrack(source);
    expect(track.audioStatus).toBe('processing');
    expect(await tracks.audioAccess(source)).toBe('admin');
    start();
    const done = await until(
      () => tracks.getTrack(track.id),
      (t) => t?.audioStatus === 'ready',
    );
    const job = await jobOf(track.id);
    expect(job).toMatchObject({ state: 'done', attempts: 1, transcode: true });
    expect(done!.audioFile).toBe(job.streamUrl);
    expect(fs.existsSync(fileOf(job.streamUrl))).toBe(true);
    expect(fs.existsSync(fileOf(source))).toBe(true);
    expect(await trackAudio.getTrackAudioAdmin(track.id)).toMatchObject({
      originalAudioFile: source,
    });
    expect(await tracks.audioAccess(source)).toBe('admin');
    expect(await tracks.audioAccess(job.streamUrl)).toBe('public');
    const stored = await peaks.getTrackPeaks(track.id, job.streamUrl);
    expect(stored).toMatchObject({ version: 2, channels: 1, sample_rate: 22050, bits: 8 });

    // Deleting the track removes the stream, the original and the peaks.
    await trackWrites.deleteTrack(track.id);
    expect(fs.existsSync(fileOf(job.streamUrl))).toBe(false);
    expect(fs.existsSync(fileOf(source))).toBe(false);
    expect(await peaks.TrackPeaks.countDocuments({ trackId: track.id })).toBe(0);
  });

  it('gives a claim to one instance until its lease runs out', async () => {
    const track = await createWavTrack(uploadWav(1));
    const first = await jobs.claimMediaJob('instance-a', 300);
    expect(first).toMatchObject({
      trackId: track.id,
      state: 'running',
      claimedBy: 'instance-a',
      attempts: 1,
    });
    expect(await jobs.claimMediaJob('instance-b', 300)).toBeNull();
    await new Promise((r) => setTimeout(r, 350));
    const again = await jobs.claimMediaJob('instance-b', 300);
    expect(again).toMatchObject({ trackId: track.id, claimedBy: 'instance-b', attempts: 2 });
    // The first instance lost it: its renewal and its outcome are refused.
    expect(await jobs.renewMediaJobLease(first!._id, 'instance-a', 300)).toBe(false);
    await jobs.markMediaJobDone(first!._id, 'instance-a');
    expect((await jobOf(track.id)).state).toBe('running');
    await jobs.markMediaJobDone(again!._id, 'instance-b');
    expect((await jobOf(track.id)).state).toBe('done');
  });

  it('retries a temporary failure with backoff, then gives up with the reason on the track', async () => {
    const source = uploadWav(1);
    const track = await createWavTrack(source);
    fs.rmSync(fileOf(source)); // the file is not there (yet): not the file's fault
    start({ retryMs: 300, maxAttempts: 2 });
    const retried = await until(
      () => jobOf(track.id),
      (j) => j.state === 'queued' && j.attempts === 1,
    );
    expect(retried.lastError).toMatch(/ENOENT|no such file/i);
    expect(retried.notBefore!.getTime() - Date.now()).toBeGreaterThan(0);
    const failed = await until(
      () => jobOf(track.id),
      (j) => j.state === 'failed',
    );
    expect(failed.attempts).toBe(2);
    expect(failed.lastError).toMatch(/Gave up after 2 attempts/);
    const audio = await trackAudio.getTrackAudioAdmin(track.id);
    expect(audio).toMatchObject({ audioStatus: 'failed', originalAudioFile: null });
    expect(audio!.audioError).toMatch(/Gave up after 2 attempts/);
  });

  it('fails an undecodable upload at once, keeping it, and says why', async () => {
    const source = uploadWav(2);
    fs.truncateSync(fileOf(source), 3000);
    const track = await createWavTrack(source);
    start();
    await until(
      () => jobOf(track.id),
      (j) => j.state === 'failed',
    );
    expect(await jobOf(track.id)).toMatchObject({ attempts: 1 });
    const audio = await trackAudio.getTrackAudioAdmin(track.id);
    expect(audio!.audioStatus).toBe('failed');
    expect(audio!.audioError).toMatch(/The WAV file is truncated/);
    expect((await tracks.getTrack(track.id))!.audioFile).toBe(source);
    expect(fs.existsSync(fileOf(source))).toBe(true);
    expect(await tracks.audioAccess(source)).toBe('admin');
  });

  it('resumes a job whose instance died: done once, one stream, one peaks document', async () => {
    const source = uploadWav(2);
    const track = await createWavTrack(source);
    // An instance claimed it and died (its lease runs out in 200 ms).
    const dead = await jobs.claimMediaJob('dead-instance', 200);
    expect(dead?.trackId).toBe(track.id);
    const before = new Set(fs.readdirSync(path.join(uploadsDir, 'audio')));
    start();
    const job = await until(
      () => jobOf(track.id),
      (j) => j.state === 'done',
    );
    expect(job.attempts).toBe(2);
    const added = fs.readdirSync(path.join(uploadsDir, 'audio')).filter((f) => !before.has(f));
    expect(added).toEqual([path.basename(job.streamUrl)]);
    expect(await peaks.TrackPeaks.countDocuments({ trackId: track.id })).toBe(1);
    expect(await tracks.getTrack(track.id)).toMatchObject({
      audioStatus: 'ready',
      audioFile: job.streamUrl,
    });

    // Finished but not marked so (a crash just before): a re-run marks it done, encoding nothing.
    const mtime = fs.statSync(fileOf(job.streamUrl)).mtimeMs;
    await jobs.MediaJob.updateOne(
      { _id: job._id },
      { $set: { state: 'running', claimedBy: 'dead-instance', notBefore: new Date(0) } },
    );
    await until(
      () => jobOf(track.id),
      (j) => j.state === 'done' && j.attempts === 3,
    );
    expect(fs.statSync(fileOf(job.streamUrl)).mtimeMs).toBe(mtime);
    expect(await peaks.TrackPeaks.countDocuments({ trackId: track.id })).toBe(1);
  });

  it('does nothing harmful when the track was deleted or its audio replaced', async () => {
    const gone = await createWavTrack(uploadWav(1), 'Gone');
    await trackWrites.deleteTrack(gone.id);
    const first = uploadWav(1);
    const replaced = await createWavTrack(first, 'Replaced');
    const firstJob = await jobOf(replaced.id);
    const second = uploadWav(2);
    await trackWrites.updateTrack(replaced.id, { audioFile: second, audioStatus: 'processing' });
    expect(fs.existsSync(fileOf(first))).toBe(false);
    start();
    const done = await until(
      () => tracks.getTrack(replaced.id),
      (t) => t?.audioStatus === 'ready',
    );
    expect((await jobs.MediaJob.findById(firstJob._id).lean())!.state).toBe('skipped');
    expect(fs.existsSync(fileOf(firstJob.streamUrl))).toBe(false);
    expect(await jobs.listMediaJobsOf(gone.id)).toEqual([]);
    const secondJob = await jobOf(replaced.id);
    expect(done!.audioFile).toBe(secondJob.streamUrl);
    expect(await peaks.getTrackPeaks(replaced.id, secondJob.streamUrl)).not.toBeNull();
  });

  it('computes only peaks for an MP3 at or below 320 kbps, which stays playable', async () => {
    const wav = uploadWav(2);
    const mp3 = `/uploads/audio/plain-${Date.now()}.mp3`;
    const { processAudio } = await import('~/media/transcode.server');
    await processAudio(fileOf(wav), fileOf(mp3));
    const track = await trackWrites.createTrack({
      title: 'MP3',
      duration: '0:02',
      coverImage: '/c.jpg',
      audioFile: mp3,
    });
    expect(track.audioStatus).toBe('ready');
    expect(await tracks.audioAccess(mp3)).toBe('public');
    start();
    await until(
      () => jobOf(track.id),
      (j) => j.state === 'done',
    );
    expect(await tracks.getTrack(track.id)).toMatchObject({ audioFile: mp3, audioStatus: 'ready' });
    expect(await trackAudio.getTrackAudioAdmin(track.id)).toMatchObject({
      originalAudioFile: null,
    });
    expect(await peaks.getTrackPeaks(track.id, mp3)).not.toBeNull();
  });
});
