import type { PeaksJSON } from '~/types/peaks';

/**
 * Waveform peaks in the BBC audiowaveform JSON format (version 2), computed from decoded PCM
 * as it streams past: the channels are mixed down to one, and each pixel keeps the minimum and
 * maximum of its `samples_per_pixel` frames, scaled to 8 bits (-128…127).
 */

/** About this many points whatever the length: enough for a page-wide waveform, small to send. */
export const TARGET_POINTS = 1500;

/** Frames per point so that a track of `frames` frames has about TARGET_POINTS points. */
export function samplesPerPixelFor(frames: number): number {
  return Math.max(1, Math.ceil(frames / TARGET_POINTS));
}

const to8bit = (v: number) => Math.max(-128, Math.min(127, Math.round(v * 127)));

export class PeaksBuilder {
  private readonly data: number[] = [];
  private min = Infinity;
  private max = -Infinity;
  private count = 0;

  constructor(
    readonly sampleRate: number,
    readonly samplesPerPixel: number,
  ) {}

  /** The next frames, one array per channel (all the same length). */
  add(channels: Float32Array[]): void {
    const n = channels[0]?.length ?? 0;
    const k = channels.length;
    const spp = this.samplesPerPixel;
    for (let i = 0; i < n; i++) {
      let v = 0;
      for (let c = 0; c < k; c++) v += channels[c]![i]!;
      v /= k;
      if (v < this.min) this.min = v;
      if (v > this.max) this.max = v;
      if (++this.count === spp) this.flush();
    }
  }

  private flush(): void {
    this.data.push(to8bit(this.min), to8bit(this.max));
    this.min = Infinity;
    this.max = -Infinity;
    this.count = 0;
  }

  /** The peaks of everything added (a last, partial pixel included). */
  result(): PeaksJSON {
    if (this.count > 0) this.flush();
    return {
      version: 2,
      channels: 1,
      sample_rate: this.sampleRate,
      samples_per_pixel: this.samplesPerPixel,
      bits: 8,
      length: this.data.length / 2,
      data: this.data,
    };
  }
}
