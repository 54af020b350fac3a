// `npm run media:peaks`: waveforms for the tracks that have none (decision 035).
// A one-off for tracks uploaded before peaks were computed at upload: for each track whose
// current audio file has no peaks, decode it and store its peaks; then say what it did.
// Tracks still processing are left to their job. Works on MONGODB_URI and on the embedded
// store, also while the site is running (it connects to the running store).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

import { mediaKeyFromUrl, mediaStore } from '../app/files/media-store.server';
import { processAudio } from '../app/media/transcode.server';
import { getTrackAudio, listTracks } from '../app/models/track.server';
import { getTrackPeaks, saveTrackPeaks } from '../app/models/track-peaks.server';
import { connectDb, disconnectDb } from '../app/platform/db.server';

await connectDb();
const counts = { tracks: 0, had: 0, computed: 0, processing: 0, missing: 0, failed: 0 };
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-peaks-'));
try {
  const store = mediaStore();
  for (const track of await listTracks()) {
    counts.tracks += 1;
    const label = `#${track.id} "${track.title}"`;
    if (track.audioStatus === 'processing') {
      counts.processing += 1;
      console.log(`${label}: still processing; its job computes the peaks`);
      continue;
    }
    if (await getTrackPeaks(track.id, track.audioFile)) {
      counts.had += 1;
      continue;
    }
    const key = mediaKeyFromUrl(track.audioFile);
    if (!key || !(await store.stat(key))) {
      counts.missing += 1;
      console.log(`${label}: its audio file ${track.audioFile} is not in the media store`);
      continue;
    }
    const local = path.join(temp, path.basename(key));
    try {
      await pipeline(await store.open(key), fs.createWriteStream(local));
      const started = Date.now();
      const { peaks, durationSeconds } = await processAudio(local, null);
      // Stored only if the track still has that file (it may have changed meanwhile).
      if ((await getTrackAudio(track.id))?.audioFile !== track.audioFile) continue;
      await saveTrackPeaks(track.id, track.audioFile, peaks);
      counts.computed += 1;
      console.log(
        `${label}: ${peaks.length} points for ${Math.round(durationSeconds)} s of audio ` +
          `(${((Date.now() - started) / 1000).toFixed(1)} s)`,
      );
    } catch (error) {
      counts.failed += 1;
      console.log(`${label}: failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      fs.rmSync(local, { force: true });
    }
  }
} finally {
  fs.rmSync(temp, { recursive: true, force: true });
  await disconnectDb();
}
console.log(
  `${counts.tracks} track(s): ${counts.computed} computed, ${counts.had} already had peaks, ` +
    `${counts.processing} still processing, ${counts.missing} without a stored file, ` +
    `${counts.failed} failed.`,
);
process.exitCode = counts.failed > 0 ? 1 : 0;
