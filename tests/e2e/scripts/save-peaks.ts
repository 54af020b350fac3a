// Stores a waveform for a track, straight through the model (the peaks computation is another
// part of the site). Usage (through `runScript` in fixtures.ts):
//   TRACK_ID=3 AUDIO_FILE=/uploads/audio/x.wav PEAKS='{"version":2,…}' tsx tests/e2e/scripts/save-peaks.ts
import { z } from 'zod';

import { saveTrackPeaks } from '../../../app/models/track-peaks.server';
import { connectDb, disconnectDb } from '../../../app/platform/db.server';

const PeaksSchema = z.object({
  version: z.literal(2),
  channels: z.number().int().positive(),
  sample_rate: z.number().int().positive(),
  samples_per_pixel: z.number().int().positive(),
  bits: z.union([z.literal(8), z.literal(16)]),
  length: z.number().int().nonnegative(),
  data: z.array(z.number().int()),
});

const trackId = z.coerce.number().int().positive().parse(process.env.TRACK_ID);
const audioFile = z.string().startsWith('/uploads/audio/').parse(process.env.AUDIO_FILE);
const peaks = PeaksSchema.parse(JSON.parse(process.env.PEAKS ?? 'null'));

await connectDb();
try {
  await saveTrackPeaks(trackId, audioFile, peaks);
} finally {
  await disconnectDb();
}
