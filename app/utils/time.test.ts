import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { describe, expect, it } from 'vitest';

import {
  addDaysToDateString,
  compareShows,
  currentSiteYear,
  DATE_FULL,
  DATE_LONG,
  DATE_SHORT,
  DATE_TIME_SHORT,
  formatAddedDate,
  formatMessageDate,
  formatShowDate,
  formatSiteDate,
  httpDate,
  icsUtcStamp,
  SITE_TIME_ZONE,
  siteToday,
  siteWeekNumber,
  siteYear,
  splitShows,
  timeToMinutes,
} from './time';

const PATTERNS = [DATE_LONG, DATE_FULL, DATE_SHORT] as const;

describe("formatSiteDate (the same output as date-fns with the site's patterns)", () => {
  it('formats calendar dates as written, every month and weekday', () => {
    for (let month = 1; month <= 12; month++) {
      for (const day of [1, 9, 28]) {
        const date = `2025-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
        for (const pattern of PATTERNS) {
          expect(formatSiteDate(date, pattern)).toBe(
            format(new Date(2025, month - 1, day), pattern),
          );
        }
      }
    }
    expect(formatSiteDate('2025-07-04', DATE_FULL)).toBe('Friday, July 4, 2025');
    expect(formatSiteDate('2025-09-05', DATE_SHORT)).toBe('Sep 5, 2025');
  });

  it('formats timestamps in the site time zone', () => {
    // 02:00 UTC on 10 March is 21:00 on 9 March in New York.
    expect(formatSiteDate('2025-03-10T02:00:00.000Z', DATE_LONG)).toBe('March 9, 2025');
    for (const iso of ['2025-01-01T04:59:00Z', '2025-07-01T03:30:00Z', '2024-11-03T06:30:00Z']) {
      for (const pattern of PATTERNS) {
        expect(formatSiteDate(iso, pattern)).toBe(
          format(new TZDate(Date.parse(iso), SITE_TIME_ZONE), pattern),
        );
      }
    }
    expect(siteYear('2025-01-01T04:59:00Z')).toBe('2024');
  });

  it('leaves an unreadable value as it is', () => {
    expect(formatSiteDate('soon')).toBe('soon');
  });
});

const show = (id: number, date: string, time = '8:00 PM') => ({ id, date, time });
const ids = (list: { id: number }[]) => list.map((s) => s.id);

describe('siteToday (America/New_York)', () => {
  it('is still the previous day in New York when UTC has already moved on', () => {
    // 02:00 UTC on 10 March is 21:00 (EST) on 9 March in New York.
    expect(siteToday(new Date('2025-03-10T02:00:00Z'))).toBe('2025-03-09');
  });
  it('follows daylight saving time', () => {
    // 03:30 UTC on 1 July is 23:30 (EDT) on 30 June in New York.
    expect(siteToday(new Date('2025-07-01T03:30:00Z'))).toBe('2025-06-30');
    expect(siteToday(new Date('2025-07-01T04:30:00Z'))).toBe('2025-07-01');
  });
});

describe('splitShows', () => {
  it('puts today in upcoming, soonest first, and the rest in past, most recent first', () => {
    const shows = [
      show(1, '2025-03-01'),
      show(2, '2025-03-20'),
      show(3, '2025-03-09'),
      show(4, '2025-02-14'),
      show(5, '2025-03-12'),
    ];
    const { upcoming, past } = splitShows(shows, '2025-03-09');
    expect(ids(upcoming)).toEqual([3, 5, 2]);
    expect(ids(past)).toEqual([1, 4]);
  });

  it('uses the New York date: a show "today" there is upcoming though UTC is on the next day', () => {
    const now = new Date('2025-03-10T02:00:00Z'); // 9 March, 9 PM in New York; 10 March in UTC
    const tonight = show(1, '2025-03-09', '11:00 PM');
    const tomorrow = show(2, '2025-03-10');
    const yesterday = show(3, '2025-03-08');
    const { upcoming, past } = splitShows([tomorrow, yesterday, tonight], siteToday(now));
    expect(ids(upcoming)).toEqual([1, 2]);
    expect(ids(past)).toEqual([3]);
    // Computed in UTC, tonight's show would wrongly be in the past.
    const utcToday = now.toISOString().slice(0, 10);
    expect(ids(splitShows([tomorrow, yesterday, tonight], utcToday).past)).toEqual([1, 3]);
  });

  it('orders shows on the same day by their time', () => {
    const { upcoming, past } = splitShows(
      [
        show(1, '2025-05-01', '10:00 PM'),
        show(2, '2025-05-01', '7:30 PM'),
        show(3, '2025-05-01', '9pm'),
      ],
      '2025-04-01',
    );
    expect(ids(upcoming)).toEqual([2, 3, 1]);
    expect(past).toEqual([]);
    const later = splitShows(
      [show(1, '2025-05-01', '10:00 PM'), show(2, '2025-05-01', '7:30 PM')],
      '2025-06-01',
    );
    expect(ids(later.past)).toEqual([1, 2]);
  });

  it('handles no shows', () => {
    expect(splitShows([], '2025-01-01')).toEqual({ upcoming: [], past: [] });
  });
});

describe('timeToMinutes / compareShows', () => {
  it('reads common free-text times', () => {
    expect(timeToMinutes('8:00 PM')).toBe(20 * 60);
    expect(timeToMinutes('12:00 AM')).toBe(0);
    expect(timeToMinutes('12:30 pm')).toBe(12 * 60 + 30);
    expect(timeToMinutes('20:15')).toBe(20 * 60 + 15);
    expect(timeToMinutes('TBA')).toBe(24 * 60);
  });
  it('compares by date first', () => {
    expect(
      compareShows(show(1, '2025-01-02', '1:00 AM'), show(2, '2025-01-01', '11:00 PM')),
    ).toBeGreaterThan(0);
  });
});

describe('the admin formats (formerly Intl and date-fns, now the one formatter)', () => {
  const messageIntl = new Intl.DateTimeFormat('en-US', {
    dateStyle: 'short',
    timeStyle: 'short',
    timeZone: SITE_TIME_ZONE,
  });
  const addedIntl = new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: SITE_TIME_ZONE,
  });

  it('formats message dates as Intl en-US short date and time in New York', () => {
    expect(formatMessageDate('2025-03-14T13:05:00.000Z')).toBe('3/14/25, 9:05 AM');
    // Every half hour over a year, across both DST changes, midnight and noon.
    const start = Date.UTC(2024, 11, 31, 0, 0);
    for (let t = start; t < start + 366 * 86_400_000; t += 30 * 60_000 + 7 * 60_000) {
      const iso = new Date(t).toISOString();
      expect(formatMessageDate(iso)).toBe(messageIntl.format(new Date(t)));
      expect(formatAddedDate(iso)).toBe(addedIntl.format(new Date(t)));
    }
    expect(formatMessageDate('2031-01-05T05:00:00Z')).toBe('1/5/31, 12:00 AM');
    expect(formatMessageDate('2031-01-05T17:00:00Z')).toBe('1/5/31, 12:00 PM');
    expect(formatSiteDate('2005-07-04T16:00:00Z', DATE_TIME_SHORT)).toBe('7/4/05, 12:00 PM');
  });

  it('formats a show date as written, as date-fns did', () => {
    for (const date of ['2025-01-01', '2025-07-04', '2031-12-31', '2024-02-29']) {
      const [y, m, d] = date.split('-').map(Number) as [number, number, number];
      expect(formatShowDate(date)).toBe(format(new Date(y, m - 1, d), 'MMMM d, yyyy'));
    }
    expect(formatShowDate('TBA')).toBe('TBA');
  });

  it('formats dates for machines: HTTP/RSS and iCalendar UTC', () => {
    expect(httpDate('2025-03-14T13:05:00.000Z')).toBe('Fri, 14 Mar 2025 13:05:00 GMT');
    expect(httpDate(Date.UTC(2025, 0, 1))).toBe('Wed, 01 Jan 2025 00:00:00 GMT');
    expect(icsUtcStamp(new Date('2025-03-14T13:05:09.123Z'))).toBe('20250314T130509Z');
  });
});

describe('calendar helpers in the site time zone', () => {
  it('gives the current year in New York', () => {
    expect(currentSiteYear(new Date('2025-01-01T04:59:00Z'))).toBe(2024);
    expect(currentSiteYear(new Date('2025-01-01T05:00:00Z'))).toBe(2025);
  });

  it('adds days to a calendar date', () => {
    expect(addDaysToDateString('2025-02-27', 2)).toBe('2025-03-01');
    expect(addDaysToDateString('2025-03-09', -10)).toBe('2025-02-27');
  });

  it('numbers weeks from Monday midnight in New York', () => {
    // Monday 10 March 2025, 00:00 EDT is 04:00 UTC.
    const before = siteWeekNumber(new Date('2025-03-10T03:59:00Z'));
    expect(siteWeekNumber(new Date('2025-03-10T04:00:00Z'))).toBe(before + 1);
    expect(siteWeekNumber(new Date('2025-03-16T23:59:00-04:00'))).toBe(before + 1);
  });
});
