import { describe, expect, it } from 'vitest';

import type { PeaksJSON } from '~/types/peaks';

import { outlineShape, WAVEFORM_HEIGHT, waveformColumns, waveformShape } from './waveform-path';

const peaks = (data: number[], channels = 1, bits: 8 | 16 = 8): PeaksJSON => ({
  version: 2,
  channels,
  sample_rate: 44100,
  samples_per_pixel: 441,
  bits,
  length: data.length / (2 * channels),
  data,
});

/** The path's points as [x, y] pairs. */
const points = (d: string) =>
  [...d.matchAll(/[ML]([\d.]+) ([\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);

describe('waveformShape', () => {
  it('draws one closed path: maxima left to right, minima back', () => {
    const shape = waveformShape(peaks([0, 0, -128, 127, -64, 64]));
    expect(shape?.columns).toBe(3);
    expect(shape?.d.startsWith('M0 ')).toBe(true);
    expect(shape?.d.endsWith('Z')).toBe(true);
    expect(shape?.d.match(/M/g)).toHaveLength(1);
    const ys = points(shape!.d).map(([, y]) => y);
    // Silence still draws a hairline either side of the middle; a full-scale peak reaches the edges.
    expect(Math.min(...ys)).toBeCloseTo(1, 0);
    expect(Math.max(...ys)).toBeCloseTo(WAVEFORM_HEIGHT - 1, 0);
    const xs = points(shape!.d).map(([x]) => x);
    expect(Math.max(...xs)).toBe(3);
  });

  it('folds many pixels into the columns asked for, keeping the loudest', () => {
    const data: number[] = [];
    for (let i = 0; i < 1000; i++) data.push(i === 500 ? -128 : -1, i === 500 ? 127 : 1);
    const shape = waveformShape(peaks(data), 100)!;
    expect(shape.columns).toBe(100);
    const top = points(shape.d).slice(1, 101);
    const loudest = top.reduce((a, b) => (b[1] < a[1] ? b : a));
    expect(loudest[0]).toBe(50.5);
    // A 90-minute set's path stays small.
    expect(waveformShape(peaks(new Array(2 * 540_000).fill(10)))!.d.length).toBeLessThan(8000);
  });

  it('reads 16-bit peaks and every channel', () => {
    const shape = waveformShape(peaks([0, 0, -32768, 32767], 2, 16))!;
    expect(shape.columns).toBe(1);
    const ys = points(shape.d).map(([, y]) => y);
    expect(Math.min(...ys)).toBeCloseTo(1, 0);
  });

  it('answers null for no peaks', () => {
    expect(waveformShape(null)).toBeNull();
    expect(waveformShape(peaks([]))).toBeNull();
  });
});

describe('waveformColumns and outlineShape', () => {
  it('are waveformShape in two steps', () => {
    const p = peaks([0, 0, -128, 127, -64, 64]);
    expect(outlineShape(waveformColumns(p)!)).toEqual(waveformShape(p));
    expect(waveformColumns(p)).toEqual({
      tops: [0, 127 / 128, 0.5],
      bottoms: [0, -1, -0.5],
    });
  });
});
