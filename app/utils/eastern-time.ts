/**
 * The site's time zone, America/New_York, in plain arithmetic: no Intl.
 *
 * Why not Intl: this module runs in the browser while a page hydrates, and the first
 * `Intl.DateTimeFormat` a page creates loads the locale and zone data (about 20 ms of main-thread
 * time on our phones-in-a-lab measurements, four times that under Lighthouse's mobile CPU). The
 * rules are fixed by US law and checked against Intl for every DST change from 1990 to 2060 in
 * `eastern-time.test.ts`.
 *
 * - since 2007: daylight time from the second Sunday of March, 02:00 EST, to the first Sunday of
 *   November, 02:00 EDT;
 * - 1987–2006: from the first Sunday of April to the last Sunday of October.
 *   Earlier instants use the 1987 rule (the site has no content that old).
 */

const MINUTE = 60_000;
const EST = -300;
const EDT = -240;

/** Day of the month of the n-th Sunday (1-based) of a month (0-based), UTC calendar. */
function nthSunday(year: number, month: number, n: number): number {
  const firstWeekday = new Date(Date.UTC(year, month, 1)).getUTCDay();
  return 1 + ((7 - firstWeekday) % 7) + (n - 1) * 7;
}

function lastSunday(year: number, month: number): number {
  const lastDay = new Date(Date.UTC(year, month + 1, 0));
  return lastDay.getUTCDate() - lastDay.getUTCDay();
}

const dstCache = new Map<number, readonly [number, number]>();

/** The UTC instants daylight time starts and ends in a year. */
function daylightSpan(year: number): readonly [number, number] {
  let span = dstCache.get(year);
  if (!span) {
    // 02:00 EST is 07:00 UTC; 02:00 EDT is 06:00 UTC.
    span =
      year >= 2007
        ? [
            Date.UTC(year, 2, nthSunday(year, 2, 2), 7),
            Date.UTC(year, 10, nthSunday(year, 10, 1), 6),
          ]
        : [Date.UTC(year, 3, nthSunday(year, 3, 1), 7), Date.UTC(year, 9, lastSunday(year, 9), 6)];
    dstCache.set(year, span);
  }
  return span;
}

/** Offset of New York time at an instant, in minutes east of UTC (-240 in July, -300 in January). */
export function easternOffsetMinutes(epochMs: number): number {
  const [start, end] = daylightSpan(new Date(epochMs).getUTCFullYear());
  return epochMs >= start && epochMs < end ? EDT : EST;
}

export type CivilDate = {
  year: number;
  /** 1–12 */
  month: number;
  /** 1–31 */
  day: number;
  /** 0 = Sunday … 6 = Saturday */
  weekday: number;
};

/** A calendar date with the time of day (0–23 hours, 0–59 minutes). */
export type WallClock = CivilDate & { hours: number; minutes: number };

/** The date and time of day on a New York wall clock at an instant. */
export function easternWallClock(epochMs: number): WallClock {
  const local = new Date(epochMs + easternOffsetMinutes(epochMs) * MINUTE);
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    weekday: local.getUTCDay(),
    hours: local.getUTCHours(),
    minutes: local.getUTCMinutes(),
  };
}

/** The calendar date in New York at an instant. */
export function easternCivilDate(epochMs: number): CivilDate {
  const { year, month, day, weekday } = easternWallClock(epochMs);
  return { year, month, day, weekday };
}

/** The calendar date of a 'YYYY-MM-DD' string, with its weekday. */
export function civilDateOf(year: number, month: number, day: number): CivilDate {
  const d = new Date(Date.UTC(year, month - 1, day));
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    weekday: d.getUTCDay(),
  };
}

/**
 * The UTC instant of a wall-clock time in New York. A time the spring change skips (02:00–02:59)
 * is read with daylight time's offset, i.e. as the hour before the change (02:30 → 01:30 EST).
 */
export function easternTimeToEpoch(
  year: number,
  month: number,
  day: number,
  hours: number,
  minutes: number,
): number {
  const guess = Date.UTC(year, month - 1, day, hours, minutes);
  const first = guess - easternOffsetMinutes(guess) * MINUTE;
  return guess - easternOffsetMinutes(first) * MINUTE;
}
