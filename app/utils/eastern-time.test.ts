import { describe, expect, it } from 'vitest';

import {
  civilDateOf,
  easternCivilDate,
  easternOffsetMinutes,
  easternTimeToEpoch,
} from './eastern-time';

const HOUR = 3_600_000;
const intlParts = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/New_York',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  weekday: 'short',
  timeZoneName: 'longOffset',
});
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** What Intl (the zone database) says of an instant in New York. */
function intl(epochMs: number) {
  const parts = intlParts.formatToParts(epochMs);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? '';
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(part('timeZoneName'));
  const offset = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  return {
    offset,
    date: {
      year: Number(part('year')),
      month: Number(part('month')),
      day: Number(part('day')),
      weekday: WEEKDAYS.indexOf(part('weekday')),
    },
  };
}

describe('eastern-time (America/New_York without Intl)', () => {
  it('agrees with the zone database around every change from 1990 to 2060', () => {
    let checked = 0;
    for (let year = 1990; year <= 2060; year++) {
      // March, April, October and November hold every change of both rule sets: each hour of
      // their Sundays (changes happen on Sunday mornings), every fifth hour of the other days.
      for (const month of [2, 3, 9, 10]) {
        const from = Date.UTC(year, month, 1);
        const to = Date.UTC(year, month + 1, 1);
        for (let t = from; t < to; t += HOUR) {
          const sundayNearby = [t - 12 * HOUR, t + 12 * HOUR].some(
            (x) => new Date(x).getUTCDay() === 0,
          );
          if (!sundayNearby && (t / HOUR) % 5 !== 0) continue;
          const expected = intl(t);
          expect(easternOffsetMinutes(t), new Date(t).toISOString()).toBe(expected.offset);
          expect(easternCivilDate(t), new Date(t).toISOString()).toEqual(expected.date);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(60_000);
  });

  it('agrees with the zone database at the minutes next to a change', () => {
    // 2025: EDT from 2025-03-09 07:00 UTC to 2025-11-02 06:00 UTC.
    const start = Date.UTC(2025, 2, 9, 7);
    const end = Date.UTC(2025, 10, 2, 6);
    for (const t of [start - 60_000, start, end - 60_000, end])
      expect(easternOffsetMinutes(t)).toBe(intl(t).offset);
    expect(easternOffsetMinutes(start - 1)).toBe(-300);
    expect(easternOffsetMinutes(start)).toBe(-240);
    expect(easternOffsetMinutes(end - 1)).toBe(-240);
    expect(easternOffsetMinutes(end)).toBe(-300);
  });

  it('turns New York wall-clock times into instants', () => {
    expect(new Date(easternTimeToEpoch(2025, 7, 4, 20, 0)).toISOString()).toBe(
      '2025-07-05T00:00:00.000Z',
    );
    expect(new Date(easternTimeToEpoch(2025, 1, 15, 9, 30)).toISOString()).toBe(
      '2025-01-15T14:30:00.000Z',
    );
    // 02:30 on the spring change day does not exist: read as 01:30 EST.
    expect(new Date(easternTimeToEpoch(2025, 3, 9, 2, 30)).toISOString()).toBe(
      '2025-03-09T06:30:00.000Z',
    );
    // The hour after the fall change happens twice; either reading keeps the wall clock.
    const t = easternTimeToEpoch(2025, 11, 2, 1, 30);
    expect(easternCivilDate(t)).toEqual({ year: 2025, month: 11, day: 2, weekday: 0 });
  });

  it('gives calendar dates their weekday', () => {
    expect(civilDateOf(2025, 7, 4)).toEqual({ year: 2025, month: 7, day: 4, weekday: 5 });
    expect(civilDateOf(2024, 2, 29)).toEqual({ year: 2024, month: 2, day: 29, weekday: 4 });
  });
});
