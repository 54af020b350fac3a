import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { SITE_TIME_ZONE } from './site-time';

/** SPEC §9 date formats. */
export const DATE_LONG = 'MMMM d, yyyy';
export const DATE_FULL = 'EEEE, MMMM d, yyyy';
export const DATE_SHORT = 'MMM d, yyyy';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Formats a calendar date ('YYYY-MM-DD', e.g. a show) or a timestamp (ISO, e.g. a post's
 * createdAt). Timestamps are shown in the site's time zone, so the server render and the
 * browser agree whatever the visitor's zone.
 */
export function formatSiteDate(value: string, pattern: string = DATE_LONG): string {
  const m = DATE_ONLY.exec(value);
  if (m) return format(new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])), pattern);
  const time = Date.parse(value);
  if (Number.isNaN(time)) return value;
  return format(new TZDate(time, SITE_TIME_ZONE), pattern);
}

/** The year (site time zone) of a timestamp or a calendar date. */
export function siteYear(value: string): string {
  return formatSiteDate(value, 'yyyy');
}
