import {
  civilDateOf,
  easternCivilDate,
  easternOffsetMinutes,
  easternTimeToEpoch,
  easternWallClock,
  type WallClock,
} from './eastern-time';

/**
 * Time on the site: its time zone, "today", and every format a date is shown or sent in.
 * Every date in app/ is formatted here (lint forbids date-fns in app/; no `toLocale*`).
 *
 * Client-safe and without Intl or a date library: this module runs in the browser while pages
 * hydrate, where neither a date library (page weight) nor Intl's first-use cost (main-thread
 * time) is wanted. The zone arithmetic is in eastern-time.ts; time.test.ts checks each format
 * against date-fns and Intl.
 */

// --- The site's time zone ------------------------------------------------------------------------

/** The collective plays on the Jersey Shore: "today" and every timestamp use this time zone. */
export const SITE_TIME_ZONE = 'America/New_York';

const pad = (n: number) => String(n).padStart(2, '0');

let lastToday = { second: Number.NaN, value: '' };

/**
 * Today's date in the site's time zone, as YYYY-MM-DD. Memoised per second (it runs on every
 * request; the date cannot change within a second, as zone offsets are whole minutes).
 */
export function siteToday(now: Date = new Date()): string {
  const second = Math.floor(now.getTime() / 1000);
  if (second === lastToday.second) return lastToday.value;
  const { year, month, day } = easternCivilDate(now.getTime());
  const value = `${year}-${pad(month)}-${pad(day)}`;
  lastToday = { second, value };
  return value;
}

/** The current year in the site's time zone (the footer's copyright year). */
export function currentSiteYear(now: Date = new Date()): number {
  return easternCivilDate(now.getTime()).year;
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

// --- Formats shown to people ---------------------------------------------------------------------

/** The site's date formats, named by their date-fns pattern (the output is date-fns's, in English). */
export const DATE_LONG = 'MMMM d, yyyy';
export const DATE_FULL = 'EEEE, MMMM d, yyyy';
export const DATE_SHORT = 'MMM d, yyyy';
/** Admin message dates: en-US short date with hour and minute ('3/14/25, 9:05 PM'). */
export const DATE_TIME_SHORT = 'M/d/yy, h:mm a';
const YEAR = 'yyyy';

export type SiteDatePattern =
  typeof DATE_LONG | typeof DATE_FULL | typeof DATE_SHORT | typeof DATE_TIME_SHORT | typeof YEAR;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;
const WEEKDAYS = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;

function formatWallClock(date: WallClock, pattern: SiteDatePattern): string {
  const month = MONTHS[date.month - 1] ?? '';
  switch (pattern) {
    case DATE_LONG:
      return `${month} ${date.day}, ${date.year}`;
    case DATE_FULL:
      return `${WEEKDAYS[date.weekday] ?? ''}, ${month} ${date.day}, ${date.year}`;
    case DATE_SHORT:
      return `${month.slice(0, 3)} ${date.day}, ${date.year}`;
    case DATE_TIME_SHORT: {
      const hour12 = date.hours % 12 === 0 ? 12 : date.hours % 12;
      const meridiem = date.hours < 12 ? 'AM' : 'PM';
      return `${date.month}/${date.day}/${pad(date.year % 100)}, ${hour12}:${pad(date.minutes)} ${meridiem}`;
    }
    case YEAR:
      return String(date.year);
  }
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Formats a calendar date ('YYYY-MM-DD', e.g. a show; midnight for a time pattern) or a
 * timestamp (ISO, e.g. a post's createdAt). Timestamps are shown in the site's time zone, so
 * the server render and the browser agree whatever the visitor's zone; calendar dates are shown
 * as written. An unreadable value is returned as it is.
 */
export function formatSiteDate(value: string, pattern: SiteDatePattern = DATE_LONG): string {
  const m = DATE_ONLY.exec(value);
  if (m) {
    const date = civilDateOf(Number(m[1]), Number(m[2]), Number(m[3]));
    return formatWallClock({ ...date, hours: 0, minutes: 0 }, pattern);
  }
  const time = Date.parse(value);
  if (Number.isNaN(time)) return value;
  return formatWallClock(easternWallClock(time), pattern);
}

/** The year (site time zone) of a timestamp or a calendar date. */
export function siteYear(value: string): string {
  return formatSiteDate(value, YEAR);
}

/** A show's calendar date (YYYY-MM-DD) as 'MMMM d, yyyy'. */
export const formatShowDate = (date: string) => formatSiteDate(date, DATE_LONG);

/** Admin message dates: '3/14/25, 9:05 PM' in the site's time zone. */
export const formatMessageDate = (iso: string) => formatSiteDate(iso, DATE_TIME_SHORT);

/** A subscriber's "Date Added": 'MMM d, yyyy' in the site's time zone. */
export const formatAddedDate = (iso: string) => formatSiteDate(iso, DATE_SHORT);

// --- Formats sent to machines ------------------------------------------------------------------

/**
 * The date of HTTP headers (RFC 9110 IMF-fixdate) and RSS's pubDate (RFC 822):
 * 'Fri, 14 Mar 2025 13:05:00 GMT'.
 */
export function httpDate(value: string | number | Date): string {
  return new Date(value).toUTCString();
}

/** An iCalendar UTC date-time (RFC 5545 form 2): '20250314T130500Z'. */
export function icsUtcStamp(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

// --- Shows: free-text times, ordering, start instants ----------------------------------------------

type Datable = { date: string; time: string };

/** Minutes after midnight for free-text times such as '8:00 PM', '20:30', '9pm'; unknown = end of day. */
export function timeToMinutes(time: string): number {
  const m = /^\s*(\d{1,2})(?::(\d{2}))?\s*([ap])?\.?\s*m?\.?\s*$/i.exec(time);
  if (!m) return 24 * 60;
  let hours = Number(m[1]);
  const minutes = Number(m[2] ?? 0);
  const meridiem = m[3]?.toLowerCase();
  if (meridiem === 'p' && hours < 12) hours += 12;
  if (meridiem === 'a' && hours === 12) hours = 0;
  if (hours > 23 || minutes > 59) return 24 * 60;
  return hours * 60 + minutes;
}

/** Ascending by date, then time. */
export function compareShows(a: Datable, b: Datable): number {
  if (a.date !== b.date) return a.date < b.date ? -1 : 1;
  return timeToMinutes(a.time) - timeToMinutes(b.time);
}

/**
 * A show on or after today (in the site's time zone) is upcoming, soonest first; a show
 * before today is past, most recent first.
 */
export function splitShows<T extends Datable>(
  shows: T[],
  today: string = siteToday(),
): { upcoming: T[]; past: T[] } {
  const upcoming = shows.filter((s) => s.date >= today).sort(compareShows);
  const past = shows.filter((s) => s.date < today).sort((a, b) => compareShows(b, a));
  return { upcoming, past };
}

/**
 * When a show starts, in the site's time zone. The time is free text such as '8:00 PM'; when
 * it cannot be read the show is treated as an all-day date.
 */
export type ShowStart = {
  allDay: boolean;
  /** YYYY-MM-DD */
  date: string;
  /** ISO 8601 with the zone's offset ('2025-07-04T20:00:00-04:00'), or the date when all-day. */
  iso: string;
  /** iCalendar local form: '20250704T200000', or '20250704' when all-day. */
  ics: string;
  /** The instant (UTC ms); midnight local time when all-day. */
  epochMs: number;
};

/** The UTC instant (ms) at which a 'YYYY-MM-DD' day starts in the site's time zone. */
export const siteDayStart = (date: string): number => zonedTimeToEpoch(date, 0, 0);

/** The UTC instant of a wall-clock time on a 'YYYY-MM-DD' date in the site's time zone. */
function zonedTimeToEpoch(date: string, hours: number, minutes: number): number {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  return easternTimeToEpoch(y, mo, d, hours, minutes);
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

export function showStart(show: { date: string; time: string }): ShowStart {
  const date = show.date.slice(0, 10);
  const compact = date.replace(/-/g, '');
  const total = timeToMinutes(show.time);
  if (total >= 24 * 60) {
    return { allDay: true, date, iso: date, ics: compact, epochMs: zonedTimeToEpoch(date, 0, 0) };
  }
  const hours = Math.floor(total / 60);
  const minutes = total % 60;
  const epochMs = zonedTimeToEpoch(date, hours, minutes);
  const offset = easternOffsetMinutes(epochMs);
  return {
    allDay: false,
    date,
    iso: `${date}T${pad(hours)}:${pad(minutes)}:00${formatOffset(offset)}`,
    ics: `${compact}T${pad(hours)}${pad(minutes)}00`,
    epochMs,
  };
}
