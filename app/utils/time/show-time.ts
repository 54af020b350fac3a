import { timeToMinutes } from './shows';
import { easternOffsetMinutes, easternTimeToEpoch } from './eastern-time';

/**
 * When a show starts, in the site's time zone (America/New_York). The time is free text such as
 * '8:00 PM'; when it cannot be read the show is treated as an all-day date.
 * Client-safe: plain arithmetic (eastern-time.ts), no time zone library or Intl in the browser.
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

const pad = (n: number) => String(n).padStart(2, '0');

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
