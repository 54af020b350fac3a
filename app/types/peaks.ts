/**
 * A track's waveform in the BBC audiowaveform JSON format (version 2), as served at
 * /api/tracks/{id}/peaks and loaded by `waveform-data`'s `WaveformData.create()`.
 * `data` holds min/max pairs per pixel and channel: [min0, max0, min1, max1, …], each in the
 * signed range of `bits` (8 bits: -128…127).
 */
export type PeaksJSON = {
  version: 2;
  channels: number;
  sample_rate: number;
  samples_per_pixel: number;
  bits: 8 | 16;
  length: number;
  data: number[];
};
