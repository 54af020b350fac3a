import { easternCivilDate } from './eastern-time';

/** The collective plays on the Jersey Shore: "today" is computed in this time zone. */
export const SITE_TIME_ZONE = 'America/New_York';

let lastToday = { second: Number.NaN, value: '' };

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Today's date in the site's time zone, as YYYY-MM-DD. Memoised per second (it runs on every
 * request; the date cannot change within a second, as zone offsets are whole minutes).
 */
export function siteToday(now: Date = new Date()): string {
  const second = Math.floor(now.getTime() / 1000);
  if (second === lastToday.second) return lastToday.value;
  // No Intl: this module is in the browser bundle, see eastern-time.ts.
  const { year, month, day } = easternCivilDate(now.getTime());
  const value = `${year}-${pad(month)}-${pad(day)}`;
  lastToday = { second, value };
  return value;
}

/** Add days to a YYYY-MM-DD date (calendar arithmetic, no time zone involved). */
export function addDaysToDateString(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * The Monday-midnight week number in the site's time zone: it changes every Monday at
 * 00:00 America/New_York. Used by the weekly rotation of the featured track.
 */
export function siteWeekNumber(now: Date = new Date()): number {
  const today = siteToday(now);
  const d = new Date(`${today}T00:00:00Z`);
  const dayOfWeek = (d.getUTCDay() + 6) % 7; // Monday = 0
  const monday = d.getTime() / 86_400_000 - dayOfWeek;
  // 1970-01-05 was a Monday (day 4 since the epoch).
  return Math.floor((monday - 4) / 7);
}
