import { SITE_TIME_ZONE } from './site-time';

/** SPEC §9 date formats (date-fns pattern notation, kept as names for the formats). */
export const DATE_LONG = 'MMMM d, yyyy';
export const DATE_FULL = 'EEEE, MMMM d, yyyy';
export const DATE_SHORT = 'MMM d, yyyy';
const YEAR = 'yyyy';

export type SiteDatePattern = typeof DATE_LONG | typeof DATE_FULL | typeof DATE_SHORT | typeof YEAR;

/**
 * The same output as date-fns `format` with these patterns in English, through Intl: this module
 * is in the browser bundle, and Intl costs no bytes (page-weight budget, issue 9).
 */
const PATTERN_OPTIONS: Record<SiteDatePattern, Intl.DateTimeFormatOptions> = {
  [DATE_LONG]: { month: 'long', day: 'numeric', year: 'numeric' },
  [DATE_FULL]: { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' },
  [DATE_SHORT]: { month: 'short', day: 'numeric', year: 'numeric' },
  [YEAR]: { year: 'numeric' },
};

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(pattern: SiteDatePattern, timeZone: string): Intl.DateTimeFormat {
  const key = `${pattern}|${timeZone}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { ...PATTERN_OPTIONS[pattern], timeZone });
    formatters.set(key, f);
  }
  return f;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Formats a calendar date ('YYYY-MM-DD', e.g. a show) or a timestamp (ISO, e.g. a post's
 * createdAt). Timestamps are shown in the site's time zone, so the server render and the
 * browser agree whatever the visitor's zone; calendar dates are shown as written.
 */
export function formatSiteDate(value: string, pattern: SiteDatePattern = DATE_LONG): string {
  const m = DATE_ONLY.exec(value);
  if (m) {
    const utc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
    return formatter(pattern, 'UTC').format(utc);
  }
  const time = Date.parse(value);
  if (Number.isNaN(time)) return value;
  return formatter(pattern, SITE_TIME_ZONE).format(time);
}

/** The year (site time zone) of a timestamp or a calendar date. */
export function siteYear(value: string): string {
  return formatSiteDate(value, YEAR);
}
