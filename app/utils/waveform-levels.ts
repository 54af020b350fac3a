import type { PeaksJSON } from '~/types/peaks';

import { outlineShape, waveformColumns, type WaveformShape } from './waveform-path';

/**
 * A waveform in two characters per column, for the embed player (decision 038): the page
 * carries the levels of every track of a playlist in its JSON, and its script draws the one
 * playing with `levelsShape`, the same outline the server drew for the first (no request for
 * peaks, which a sandboxed frame could not make anyway). 160 columns: 320 characters a track,
 * where the path itself is about 3 KB. Each column is the loudest maximum, then the loudest
 * minimum, as a magnitude in 64 steps, one base64url digit each.
 */
export const EMBED_WAVEFORM_COLUMNS = 160;

const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const STEPS = DIGITS.length - 1;

const digit = (value: number) => DIGITS[Math.round(Math.min(1, Math.abs(value)) * STEPS)];

/** The levels of a set of peaks, or null when they hold no data. */
export function waveformLevels(
  peaks: PeaksJSON | null | undefined,
  columns = EMBED_WAVEFORM_COLUMNS,
): string | null {
  const folded = waveformColumns(peaks, columns);
  if (!folded) return null;
  return folded.tops.map((top, c) => digit(top) + digit(folded.bottoms[c])).join('');
}

/** The outline of `waveformLevels`' text, or null when it is empty or not such a text. */
export function levelsShape(levels: string): WaveformShape | null {
  const tops: number[] = [];
  const bottoms: number[] = [];
  for (let i = 0; i + 1 < levels.length; i += 2) {
    const top = DIGITS.indexOf(levels[i]);
    const bottom = DIGITS.indexOf(levels[i + 1]);
    if (top < 0 || bottom < 0) return null;
    tops.push(top / STEPS);
    bottoms.push(-bottom / STEPS);
  }
  return tops.length > 0 ? outlineShape({ tops, bottoms }) : null;
}
