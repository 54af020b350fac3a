import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { DATE_FULL, DATE_LONG, DATE_SHORT, formatSiteDate, siteYear } from './dates';
import { SITE_TIME_ZONE } from './site-time';

const PATTERNS = [DATE_LONG, DATE_FULL, DATE_SHORT] as const;

describe('formatSiteDate (Intl, same output as the SPEC §9 date-fns patterns)', () => {
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
