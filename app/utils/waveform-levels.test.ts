import { describe, expect, it } from 'vitest';

import type { PeaksJSON } from '~/types/peaks';

import { EMBED_WAVEFORM_COLUMNS, levelsShape, waveformLevels } from './waveform-levels';
import { outlineShape, waveformColumns } from './waveform-path';

const peaks = (data: number[]): PeaksJSON => ({
  version: 2,
  channels: 1,
  sample_rate: 44100,
  samples_per_pixel: 441,
  bits: 8,
  length: data.length / 2,
  data,
});

describe('waveformLevels', () => {
  it('writes two characters a column: silence, full scale, half', () => {
    expect(waveformLevels(peaks([0, 0, -128, 127, -64, 64]))).toBe('AA__gg');
  });

  it('folds a long set into the embed’s 160 columns', () => {
    const data: number[] = [];
    for (let i = 0; i < 10_000; i++) data.push(-(i % 100), i % 100);
    expect(waveformLevels(peaks(data))).toHaveLength(2 * EMBED_WAVEFORM_COLUMNS);
  });

  it('is null without peaks', () => {
    expect(waveformLevels(null)).toBeNull();
    expect(waveformLevels(peaks([]))).toBeNull();
  });
});

describe('levelsShape', () => {
  it('draws what the peaks draw, to a 64th of the height', () => {
    const p = peaks([0, 0, -128, 127, -64, 64, -10, 30]);
    const shape = levelsShape(waveformLevels(p)!)!;
    const direct = outlineShape(waveformColumns(p)!);
    expect(shape.columns).toBe(direct.columns);
    const ys = (d: string) => [...d.matchAll(/[ML][\d.]+ ([\d.]+)/g)].map((m) => Number(m[1]));
    ys(shape.d).forEach((y, i) => expect(Math.abs(y - ys(direct.d)[i])).toBeLessThanOrEqual(0.5));
  });

  it('is null for an empty or foreign text', () => {
    expect(levelsShape('')).toBeNull();
    expect(levelsShape('A*')).toBeNull();
  });
});
