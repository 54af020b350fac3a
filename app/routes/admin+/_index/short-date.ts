import { DATE_SHORT, formatSiteDate } from '~/utils/time';

/** A timestamp or calendar date as the dashboard shows it: 'MMM d, yyyy' (site time zone). */
export const shortDate = (iso: string) => formatSiteDate(iso, DATE_SHORT);
