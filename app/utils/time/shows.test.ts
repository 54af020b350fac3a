import { describe, expect, it } from 'vitest';
import { compareShows, splitShows, timeToMinutes } from './shows';
import { siteToday } from './site-time';

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
