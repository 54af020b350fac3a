import { expect, type Page } from '@playwright/test';

/**
 * Watches a page for requests to any host other than the site's own and (with JavaScript)
 * for console errors and uncaught exceptions. Call `check()` at the end of the test.
 */
export function watchPage(page: Page, baseURL: string | undefined) {
  const origin = new URL(baseURL ?? 'http://localhost').origin;
  const foreign: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (/^(data|blob|about):/.test(url)) return;
    if (new URL(url).origin !== origin) foreign.push(url);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  return {
    check() {
      expect(foreign, 'requests to other hosts').toEqual([]);
      expect(errors, 'console errors').toEqual([]);
    },
  };
}

/** A unique suffix for data this test creates. */
export const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** YYYY-MM-DD, `days` from today (UTC calendar; callers keep a margin of a day or more). */
export function dateFromToday(days: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
