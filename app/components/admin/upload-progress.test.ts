import { describe, expect, it } from 'vitest';

import {
  addSample,
  percentSent,
  progressText,
  remainingText,
  uploadSpeed,
} from './upload-progress';

const MB = 1024 * 1024;

describe('upload progress', () => {
  it('estimates the speed over the last samples and forgets those before a resume', () => {
    let samples = addSample([], { at: 0, bytes: 0 });
    expect(uploadSpeed(samples)).toBeNull();
    samples = addSample(samples, { at: 2000, bytes: 4 * MB });
    expect(uploadSpeed(samples)).toBe(2 * MB);
    // After a dropped connection the bytes go back: old samples no longer count.
    samples = addSample(samples, { at: 3000, bytes: 3 * MB });
    expect(samples).toHaveLength(1);
    expect(uploadSpeed(samples)).toBeNull();
    // Samples older than 20 s drop out.
    samples = addSample(addSample([], { at: 0, bytes: 0 }), { at: 25_000, bytes: 10 * MB });
    expect(samples).toHaveLength(1);
  });

  it('says the percentage and the remaining time', () => {
    expect(percentSent(0, 100)).toBe(0);
    expect(percentSent(999, 1000)).toBe(99);
    expect(percentSent(1000, 1000)).toBe(100);
    expect(remainingText(180 * MB, MB)).toBe('about 3 min left');
    expect(remainingText(38 * MB, MB)).toBe('about 40 s left');
    expect(remainingText(2 * MB, MB)).toBe('about 5 s left');
    expect(remainingText(80 * 60 * MB, MB)).toBe('about 1 h 20 min left');
    expect(remainingText(MB, null)).toBeNull();
    expect(progressText(42 * MB, 100 * MB, (58 * MB) / 180)).toBe('42% · about 3 min left');
    expect(progressText(42, 100, null)).toBe('42%');
    expect(progressText(100, 100, MB)).toBe('100%');
  });
});
