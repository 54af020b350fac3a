import { siteToday } from './site-time';

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
 * SPEC §4: on or after today (in the site's time zone) is upcoming, soonest first;
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
