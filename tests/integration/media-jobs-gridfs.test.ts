import fs from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type * as MediaStoreModule from '~/files/media-store.server';
import type * as MediaWorkerModule from '~/media/worker.server';
import type * as MediaJobModule from '~/models/media-job.server';
import type * as TrackModule from '~/models/track.server';
import type * as PeaksModule from '~/models/track-peaks.server';
import type * as TrackWritesModule from '~/models/track-writes.server';

import { setupTestDatabase } from '../helpers/test-db';
import { writeWav } from '../helpers/wav';

/**
 * A media job with MEDIA_STORAGE=gridfs (decision 023): the upload is read from GridFS into a
 * temporary local copy, its stream is put into GridFS, and no local file is left behind.
 */
process.env.MEDIA_STORAGE = 'gridfs';
const { uploadsDir } = setupTestDatabase();

let store: MediaStoreModule.MediaStore;
let worker: MediaWorkerModule.MediaWorker;
let jobs: typeof MediaJobModule;
let tracks: typeof TrackModule;
let trackWrites: typeof TrackWritesModule;
let peaks: typeof PeaksModule;

beforeAll(async () => {
  store = (await import('~/files/media-store.server')).mediaStore();
  jobs = await import('~/models/media-job.server');
  tracks = await import('~/models/track.server');
  trackWrites = await import('~/models/track-writes.server');
  peaks = await import('~/models/track-peaks.server');
  const { createMediaWorker } = await import('~/media/worker.server');
  worker = createMediaWorker({ pollMs: 50, leaseMs: 5000 });
});
afterAll(async () => {
  await worker.stop();
});

describe('media jobs on GridFS', () => {
  it('reads the upload from GridFS and stores the stream there, leaving no local file', async () => {
    expect(store.kind).toBe('gridfs');
    const local = path.join(uploadsDir, 'audio', 'set.wav');
    writeWav(local, { seconds: 2, sampleRate: 22050, bursts: [1] });
    await store.put('audio/set.wav', local);
    fs.rmSync(local);
    const track = await trackWrites.createTrack({
      title: 'GridFS set',
      duration: '0:02',
      coverImage: '/c.jpg',
      audioFile: '/uploads/audio/set.wav',
      audioStatus: 'processing',
    });
    worker.start();
    const deadline = Date.now() + 20_000;
    let ready = await tracks.getTrack(track.id);
    while (ready?.audioStatus !== 'ready' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      ready = await tracks.getTrack(track.id);
    }
    const [job] = await jobs.listMediaJobsOf(track.id);
    expect(job).toMatchObject({ state: 'done', transcode: true });
    expect(ready!.audioFile).toBe(job!.streamUrl);
    const key = job!.streamUrl.replace('/uploads/', '');
    expect((await store.stat(key))?.size).toBeGreaterThan(40_000);
    expect(await store.stat('audio/set.wav')).not.toBeNull();
    expect(await peaks.getTrackPeaks(track.id, job!.streamUrl)).toMatchObject({ version: 2 });
    expect(fs.readdirSync(path.join(uploadsDir, 'audio'))).toEqual([]);
  });
});
