import { civilDateOf, easternCivilDate, type CivilDate } from './eastern-time';

/** SPEC §9 date formats (date-fns pattern notation, kept as names for the formats). */
export const DATE_LONG = 'MMMM d, yyyy';
export const DATE_FULL = 'EEEE, MMMM d, yyyy';
export const DATE_SHORT = 'MMM d, yyyy';
const YEAR = 'yyyy';

export type SiteDatePattern = typeof DATE_LONG | typeof DATE_FULL | typeof DATE_SHORT | typeof YEAR;

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

/**
 * The same output as date-fns `format` with these patterns in English (and as Intl's en-US),
 * in plain code: this module runs in the browser while pages hydrate, where neither a date
 * library (page-weight budget) nor Intl's first-use cost (main-thread time) is wanted. See
 * eastern-time.ts; dates.test.ts checks the output against Intl.
 */
function formatCivil(date: CivilDate, pattern: SiteDatePattern): string {
  const month = MONTHS[date.month - 1] ?? '';
  switch (pattern) {
    case DATE_LONG:
      return `${month} ${date.day}, ${date.year}`;
    case DATE_FULL:
      return `${WEEKDAYS[date.weekday] ?? ''}, ${month} ${date.day}, ${date.year}`;
    case DATE_SHORT:
      return `${month.slice(0, 3)} ${date.day}, ${date.year}`;
    case YEAR:
      return String(date.year);
  }
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Formats a calendar date ('YYYY-MM-DD', e.g. a show) or a timestamp (ISO, e.g. a post's
 * createdAt). Timestamps are shown in the site's time zone, so the server render and the
 * browser agree whatever the visitor's zone; calendar dates are shown as written.
 */
export function formatSiteDate(value: string, pattern: SiteDatePattern = DATE_LONG): string {
  const m = DATE_ONLY.exec(value);
  if (m) return formatCivil(civilDateOf(Number(m[1]), Number(m[2]), Number(m[3])), pattern);
  const time = Date.parse(value);
  if (Number.isNaN(time)) return value;
  return formatCivil(easternCivilDate(time), pattern);
}

/** The year (site time zone) of a timestamp or a calendar date. */
export function siteYear(value: string): string {
  return formatSiteDate(value, YEAR);
}
