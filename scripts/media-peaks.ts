// `npm run media:peaks`: waveforms for the tracks that have none (decision 035).
// A one-off for tracks uploaded before peaks were computed at upload: for each track whose
// current audio file has no peaks, decode it and store its peaks; then say what it did.
// Tracks still processing are left to their job. Works on MONGODB_URI and on the embedded
// store, also while the site is running (it connects to the running store).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

import { oneLine, runScript, ScriptFailure } from './run-script';

await runScript(
  'media:peaks',
  async () => {
    const { mediaKeyFromUrl, mediaStore } = await import('../app/files/media-store.server');
    const { processAudio } = await import('../app/media/transcode.server');
    const { listTracks } = await import('../app/models/track.server');
    const { getTrackAudio } = await import('../app/models/track-audio.server');
    const { getTrackPeaks, saveTrackPeaks } = await import('../app/models/track-peaks.server');
    const counts = { tracks: 0, had: 0, computed: 0, processing: 0, missing: 0 };
    /** Each track that could not get its peaks, and why. */
    const problems: string[] = [];
    const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-peaks-'));
    try {
      const store = mediaStore();
      for (const track of await listTracks()) {
        counts.tracks += 1;
        const label = `#${track.id} "${track.title}"`;
        // Its job computes them.
        if (track.audioStatus === 'processing') {
          counts.processing += 1;
          continue;
        }
        if (await getTrackPeaks(track.id, track.audioFile)) {
          counts.had += 1;
          continue;
        }
        const key = mediaKeyFromUrl(track.audioFile);
        if (!key || !(await store.stat(key))) {
          counts.missing += 1;
          continue;
        }
        const local = path.join(temp, path.basename(key));
        try {
          await pipeline(await store.open(key), fs.createWriteStream(local));
          const { peaks } = await processAudio(local, null);
          // Stored only if the track still has that file (it may have changed meanwhile).
          if ((await getTrackAudio(track.id))?.audioFile !== track.audioFile) continue;
          await saveTrackPeaks(track.id, track.audioFile, peaks);
          counts.computed += 1;
        } catch (error) {
          problems.push(`${label}: ${oneLine(error)}`);
        } finally {
          fs.rmSync(local, { force: true });
        }
      }
    } finally {
      fs.rmSync(temp, { recursive: true, force: true });
    }
    const summary =
      `${counts.tracks} track(s): ${counts.computed} computed, ${counts.had} already had peaks, ` +
      `${counts.processing} still processing, ${counts.missing} without a stored file, ` +
      `${problems.length} failed`;
    if (problems.length > 0)
      throw new ScriptFailure(`media:peaks: ${summary}: ${problems.join('; ')}`);
    return `${summary}.`;
  },
  { db: true },
);
