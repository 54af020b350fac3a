import { format } from 'date-fns';
import { SITE_TIME_ZONE } from './site-time';

const messageDate = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'short',
  timeStyle: 'short',
  timeZone: SITE_TIME_ZONE,
});

/** Admin message dates: en-US short date with hour and minute, e.g. '3/14/25, 9:05 PM'. */
export const formatMessageDate = (iso: string) => messageDate.format(new Date(iso));

/** A show's calendar date (YYYY-MM-DD) as 'MMMM d, yyyy', with no time zone shift. */
export function formatShowDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  if (!y || !m || !d) return date;
  return format(new Date(y, m - 1, d), 'MMMM d, yyyy');
}

/** A subscriber's "Date Added": 'MMM d, yyyy' in the site's time zone. */
const addedDate = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: SITE_TIME_ZONE,
});
export const formatAddedDate = (iso: string) => addedDate.format(new Date(iso));
