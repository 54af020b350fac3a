import { execFileSync } from 'node:child_process';
import path from 'node:path';

import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import type * as MediaWorkerModule from '~/media/worker.server';
import type * as MediaJobModule from '~/models/media-job.server';
import type * as TrackModule from '~/models/track.server';
import type * as TrackAudioModule from '~/models/track-audio.server';
import type * as TrackWritesModule from '~/models/track-writes.server';

import { setupTestDatabase } from '../helpers/test-db';
import { writeDeclaredChunkWav, writeWav } from '../helpers/wav';

/**
 * Issue 38's reproductions against the media queue on the embedded store (decision 046): a WAV
 * declaring a 2 GB `fmt ` chunk, a 4 kHz WAV, a job past its time limit and one past its
 * memory limit each fail once, for good, with a message the admin sees on the track; the
 * server's memory does not grow with the hostile file; the job queued behind completes.
 */
const { uploadsDir } = setupTestDatabase();

let worker: typeof MediaWorkerModule;
let jobs: typeof MediaJobModule;
let tracks: typeof TrackModule;
let trackWrites: typeof TrackWritesModule;
let trackAudio: typeof TrackAudioModule;
let running: MediaWorkerModule.MediaWorker | null = null;

beforeAll(async () => {
  worker = await import('~/media/worker.server');
  jobs = await import('~/models/media-job.server');
  tracks = await import('~/models/track.server');
  trackAudio = await import('~/models/track-audio.server');
  trackWrites = await import('~/models/track-writes.server');
});

afterEach(async () => {
  await running?.stop();
  running = null;
});

const MB = 1024 * 1024;
let n = 0;
const fresh = (ext = 'wav') => `limits-${++n}-${Date.now()}.${ext}`;
const fileOf = (url: string) => path.join(uploadsDir, ...url.replace('/uploads/', '').split('/'));

/** A playable WAV upload (1 s, 22.05 kHz stereo): what is queued behind the hostile one. */
function goodWav(): string {
  const url = `/uploads/audio/${fresh()}`;
  writeWav(fileOf(url), { seconds: 1, sampleRate: 22050, bursts: [0.5] });
  return url;
}

function start(options: Partial<MediaWorkerModule.MediaWorkerOptions> = {}) {
  running = worker.createMediaWorker({ pollMs: 50, leaseMs: 5000, retryMs: 100, ...options });
  running.start();
  return running;
}

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const track = (audioFile: string, title: string) =>
  trackWrites.createTrack({
    title,
    duration: '0:01',
    coverImage: '/c.jpg',
    audioFile,
    audioStatus: 'processing',
  });
const jobOf = async (trackId: number) => (await jobs.listMediaJobsOf(trackId))[0]!;
const finished = (trackId: number) =>
  until(
    () => jobOf(trackId),
    (j) => j.state === 'failed' || j.state === 'done',
  );

/** The hostile job failed once, for good, and the admin reads `message` on its track. */
async function expectFailedOnce(trackId: number, message: RegExp) {
  const job = await finished(trackId);
  expect(job).toMatchObject({ state: 'failed', attempts: 1 });
  expect(job.lastError).toMatch(message);
  const audio = await trackAudio.getTrackAudioAdmin(trackId);
  expect(audio!.audioStatus).toBe('failed');
  expect(audio!.audioError).toMatch(message);
}

describe('media job limits (issue 38)', () => {
  it('fails a WAV declaring a 2 GB fmt chunk at once; RSS grows < 64 MB; the next job completes', async () => {
    const hostile = `/uploads/audio/${fresh()}`;
    writeDeclaredChunkWav(fileOf(hostile), 'fmt ', 2 ** 31, 32 * MB);
    const bad = await track(hostile, 'Hostile fmt');
    const good = await track(goodWav(), 'Behind it');
    const rss = process.memoryUsage.rss();
    const started = Date.now();
    start();
    await expectFailedOnce(bad.id, /fmt chunk declares 2147483648 bytes: at most 65536/);
    const failedAfter = Date.now() - started;
    expect((await finished(good.id)).state).toBe('done');
    expect((await tracks.getTrack(good.id))!.audioStatus).toBe('ready');
    const growth = process.memoryUsage.rss() - rss;
    expect(growth).toBeLessThan(64 * MB);
    console.info(
      `[media-limits] 2 GB fmt chunk: failed after ${failedAfter} ms; ` +
        `this process's RSS grew ${Math.round(growth / MB)} MB`,
    );
  });

  it('fails a 4 kHz WAV once, permanently, saying why', async () => {
    const url = `/uploads/audio/${fresh()}`;
    writeWav(fileOf(url), { seconds: 1, sampleRate: 4000, channels: 1 });
    const low = await track(url, '4 kHz');
    start({ maxAttempts: 3 });
    await expectFailedOnce(low.id, /sample rate is 4000 Hz: 8 to 192 kHz only/);
    // It stays failed: no retry is queued.
    await new Promise((r) => setTimeout(r, 300));
    expect(await jobOf(low.id)).toMatchObject({ state: 'failed', attempts: 1 });
  });

  it.skipIf(process.platform === 'win32')(
    'ends a job past its time limit, reports it, and runs the next',
    async () => {
      // A FIFO nobody writes to: opening it never returns, the job hangs.
      const url = `/uploads/audio/${fresh()}`;
      execFileSync('mkfifo', [fileOf(url)]);
      const stuck = await track(url, 'Stuck');
      const good = await track(goodWav(), 'Next');
      // 2 s for any job, 2000 s per MB: the empty FIFO gets 2 s, the 86 KB WAV about 170.
      start({
        limits: { baseSeconds: 2, secondsPerMb: 2000, secondsPerAudioMinute: 0, memoryMb: 384 },
      });
      await expectFailedOnce(stuck.id, /took longer than its limit of 2 s \(for 0 MB\)/);
      expect((await finished(good.id)).state).toBe('done');
    },
  );

  it('ends a job past its memory limit, reports it, for good', async () => {
    // A job process under tsx holds more than 64 MB before it reads a byte.
    const big = await track(goodWav(), 'Too big');
    start({
      limits: { baseSeconds: 60, secondsPerMb: 1, secondsPerAudioMinute: 6, memoryMb: 64 },
    });
    await expectFailedOnce(big.id, /used more than its memory limit of 64 MB/);
  });
});
