import { describe, expect, it } from 'vitest';

import {
  currentRowIndex,
  deepLinkTime,
  formatClock,
  isoDurationOf,
  parseClock,
  parseDeepLinkTime,
} from './media-time';

describe('media times', () => {
  it('reads clocks: m:ss and h:mm:ss', () => {
    expect(parseClock('0:00')).toBe(0);
    expect(parseClock('4:05')).toBe(245);
    expect(parseClock('62:30')).toBe(3750);
    expect(parseClock('1:02:30')).toBe(3750);
    expect(parseClock(' 10:00:00 ')).toBe(36000);
    for (const bad of ['', '1', '1:2', '1:60', '1:02:60', '1:2:30', 'a:bc', '-1:00', '25:00:01']) {
      expect(parseClock(bad)).toBeNull();
    }
  });

  it('shows m:ss under an hour, h:mm:ss from an hour on', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(59.9)).toBe('0:59');
    expect(formatClock(3599)).toBe('59:59');
    expect(formatClock(3600)).toBe('1:00:00');
    expect(formatClock(3750)).toBe('1:02:30');
    expect(formatClock(Number.NaN)).toBe('0:00');
  });

  it('reads deep-link times: 1h02m30s, 3750, 62:30, 1:02:30, 90s, 2m', () => {
    expect(parseDeepLinkTime('1h02m30s')).toBe(3750);
    expect(parseDeepLinkTime('1H2M30S')).toBe(3750);
    expect(parseDeepLinkTime('3750')).toBe(3750);
    expect(parseDeepLinkTime('62:30')).toBe(3750);
    expect(parseDeepLinkTime('1:02:30')).toBe(3750);
    expect(parseDeepLinkTime('90s')).toBe(90);
    expect(parseDeepLinkTime('2m')).toBe(120);
    expect(parseDeepLinkTime('1h')).toBe(3600);
    expect(parseDeepLinkTime('0')).toBe(0);
    for (const bad of [
      null,
      undefined,
      '',
      'h',
      'ms',
      '1x',
      '-5',
      '1.5',
      '1h2h',
      '99999999',
      '90000',
    ]) {
      expect(parseDeepLinkTime(bad)).toBeNull();
    }
  });

  it('writes deep-link times that read back', () => {
    expect(deepLinkTime(3750)).toBe('1h02m30s');
    expect(deepLinkTime(125.7)).toBe('2m05s');
    expect(deepLinkTime(45)).toBe('45s');
    for (const s of [0, 59, 61, 3599, 3600, 3750, 86399]) {
      expect(parseDeepLinkTime(deepLinkTime(s))).toBe(s);
    }
  });

  it('writes ISO 8601 durations', () => {
    expect(isoDurationOf(3750)).toBe('PT1H2M30S');
    expect(isoDurationOf(225)).toBe('PT3M45S');
    expect(isoDurationOf(3600)).toBe('PT1H');
    expect(isoDurationOf(30)).toBe('PT30S');
    expect(isoDurationOf(0)).toBe('PT0S');
  });

  it('finds the tracklist row playing at a position', () => {
    const rows = [{ start: 10 }, { start: 60 }, { start: 90 }];
    expect(currentRowIndex(rows, 0)).toBe(-1);
    expect(currentRowIndex(rows, 10)).toBe(0);
    expect(currentRowIndex(rows, 89.9)).toBe(1);
    expect(currentRowIndex(rows, 90)).toBe(2);
    expect(currentRowIndex([], 5)).toBe(-1);
  });
});
