import type { PeaksJSON } from '~/types/peaks';

/**
 * A waveform as one SVG path (client-safe, decision 034): the audiowaveform peaks are folded
 * into `columns` columns (the loudest min/max of every channel in each), and drawn as one
 * closed outline in a `columns × WAVEFORM_HEIGHT` box, the top edge left to right along the
 * maxima (one point in the middle of each column), the bottom edge back along the minima. One
 * element, whatever the length of the set: about 6 KB of HTML for 320 columns.
 */
export const WAVEFORM_HEIGHT = 64;
export const WAVEFORM_COLUMNS = 320;

export type WaveformShape = {
  /** The path's `d`, in a box `0 0 columns WAVEFORM_HEIGHT`. */
  d: string;
  columns: number;
};

/** The peaks as a path, or null when they hold no data (or are not readable). */
export function waveformShape(
  peaks: PeaksJSON | null | undefined,
  columns = WAVEFORM_COLUMNS,
): WaveformShape | null {
  const folded = waveformColumns(peaks, columns);
  return folded ? outlineShape(folded) : null;
}

/** The loudest maximum (`tops`) and minimum (`bottoms`) of each column, each in -1..1. */
export type WaveformColumns = { tops: number[]; bottoms: number[] };

/**
 * The audiowaveform peaks folded into at most `columns` columns: the loudest min/max of every
 * channel in each; null when they hold no data (or are not readable).
 */
export function waveformColumns(
  peaks: PeaksJSON | null | undefined,
  columns = WAVEFORM_COLUMNS,
): WaveformColumns | null {
  if (!peaks || !Array.isArray(peaks.data)) return null;
  const channels = Math.max(1, Math.floor(peaks.channels) || 1);
  const pixels = Math.floor(peaks.data.length / (2 * channels));
  if (pixels <= 0 || columns <= 0) return null;
  const scale = 2 ** ((peaks.bits === 16 ? 16 : 8) - 1);
  const n = Math.min(columns, pixels);
  const tops: number[] = [];
  const bottoms: number[] = [];
  for (let c = 0; c < n; c++) {
    const from = Math.floor((c * pixels) / n);
    const to = Math.max(from + 1, Math.floor(((c + 1) * pixels) / n));
    let min = 0;
    let max = 0;
    for (let p = from; p < to; p++) {
      for (let ch = 0; ch < channels; ch++) {
        const i = (p * channels + ch) * 2;
        const lo = Number(peaks.data[i]) || 0;
        const hi = Number(peaks.data[i + 1]) || 0;
        if (lo < min) min = lo;
        if (hi > max) max = hi;
      }
    }
    tops.push(Math.max(-1, Math.min(1, max / scale)));
    bottoms.push(Math.max(-1, Math.min(1, min / scale)));
  }
  return { tops, bottoms };
}

/** Folded columns as one closed outline (see the top of this file); at least one column. */
export function outlineShape({ tops, bottoms }: WaveformColumns): WaveformShape {
  const n = tops.length;
  const mid = WAVEFORM_HEIGHT / 2;
  // At least half a unit either side of the middle, so silence still draws a line.
  const y = (v: number, side: 1 | -1) => round(mid - side * Math.max(0.5, Math.abs(v) * (mid - 1)));
  const parts = [`M0 ${y(tops[0], 1)}`];
  for (let c = 0; c < n; c++) parts.push(`L${c + 0.5} ${y(tops[c], 1)}`);
  parts.push(`L${n} ${y(tops[n - 1], 1)}L${n} ${y(bottoms[n - 1], -1)}`);
  for (let c = n - 1; c >= 0; c--) parts.push(`L${c + 0.5} ${y(bottoms[c], -1)}`);
  parts.push(`L0 ${y(bottoms[0], -1)}Z`);
  return { d: parts.join(''), columns: n };
}

const round = (v: number) => Math.round(v * 10) / 10;
