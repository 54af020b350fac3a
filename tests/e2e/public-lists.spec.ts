import fs from 'node:fs';

import { type Locator, type Page, request as playwrightRequest } from '@playwright/test';

import { fixture } from './admin-helpers';
import { ADMIN, expect, test } from './fixtures';
import { unique } from './public-helpers';

/**
 * The public lists in pages (issue 37), with JavaScript on and off: a catalogue of 30 tracks of
 * one series (26 live sets, 4 singles) made through the admin API spans two pages of /music's
 * search; the Next/Previous links, the search and the type filter across the pages, the last
 * page for a page past the end, and the canonical/prev/next links. /shows pages its archive of
 * past shows.
 *
 * The tests run one after the other in one worker per project, on data made once per project.
 * Other tests add tracks meanwhile: these assert only on the series (found through the search).
 */
test.describe.configure({ mode: 'serial' });

const SERIES = 30;
const MIXES = 26;
const PER_PAGE = 24;
const origin = `http://localhost:${process.env.E2E_PORT}`;
let prefix = '';
let showPrefix = '';

const two = (i: number) => String(i).padStart(2, '0');

test.beforeAll(async ({ accounts: _accounts }) => {
  test.setTimeout(180_000);
  prefix = `Pagelist ${unique()}`;
  showPrefix = `Archive ${unique()}`;
  const api = await playwrightRequest.newContext({
    baseURL: origin,
    extraHTTPHeaders: { Origin: origin },
  });
  const login = await api.post('/api/login', { data: ADMIN });
  expect(login.status(), await login.text()).toBe(200);
  const cover = fs.readFileSync(fixture('cover.jpg'));
  const audio = fs.readFileSync(fixture('short.mp3'));
  // One after the other: the series' order (newest first) is the order they are made in.
  for (let i = 0; i < SERIES; i++) {
    const created = await api.post('/api/admin/tracks', {
      multipart: {
        title: `${prefix} ${two(i)}`,
        type: i < MIXES ? 'Live set' : 'Single',
        coverImage: { name: 'cover.jpg', mimeType: 'image/jpeg', buffer: cover },
        audioFile: { name: 'short.mp3', mimeType: 'audio/mpeg', buffer: audio },
      },
    });
    expect(created.status(), await created.text()).toBe(201);
  }
  // 21 past shows, long ago (the archive's last pages, whatever other tests add): more than
  // one page of 20 once other past shows come before them.
  for (let i = 0; i < 21; i++) {
    const created = await api.post('/api/admin/shows', {
      data: {
        title: `${showPrefix} ${two(i)}`,
        venue: `${showPrefix} venue ${two(i)}`,
        location: 'Asbury Park, NJ',
        date: `1990-01-${two(i + 1)}`,
        time: '8:00 PM',
      },
    });
    expect(created.status(), await created.text()).toBe(201);
  }
  await api.dispose();
});

/**
 * Clicks a pagination link once it has stopped moving. It sits below cards that render only
 * as they near the viewport (`content-visibility: auto`, decision 012): scrolling to it renders
 * the last rows at their real height in place of the placeholder's, which moves the link after
 * Playwright's own scroll, and a click on the old spot reached no link (a fresh-clone CI run).
 * A visitor clicks what they see, after it has settled.
 */
async function clickSettled(link: Locator) {
  await link.scrollIntoViewIfNeeded();
  let last = '';
  await expect
    .poll(
      async () => {
        const box = JSON.stringify(await link.boundingBox());
        const still = box === last;
        last = box;
        return still;
      },
      { intervals: [100] },
    )
    .toBe(true);
  await link.click();
}

const cards = (page: Page) => page.getByTestId('track-card');
const titles = async (page: Page) =>
  (await page.locator('[data-testid="track-card"] h3').allTextContents()).map((t) => t.trim());
const pagination = (page: Page, name = 'Pagination') => page.getByRole('navigation', { name });
const linkHref = (page: Page, rel: string) =>
  page.locator(`head link[rel="${rel}"]`).getAttribute('href');

test('/music search spans pages: Next and Previous links, canonical, prev and next', async ({
  page,
}) => {
  const q = encodeURIComponent(prefix).replace(/%20/g, '+');
  await page.goto(`/music?q=${q}`);
  await expect(cards(page)).toHaveCount(PER_PAGE);
  const first = await titles(page);
  expect(first[0]).toBe(`${prefix} 29`);
  expect(first.every((t) => t.startsWith(prefix))).toBe(true);
  expect(await linkHref(page, 'canonical')).toBe(`${origin}/music?q=${q}`);
  expect(await linkHref(page, 'next')).toBe(`${origin}/music?q=${q}&page=2`);
  await expect(page.locator('head link[rel="prev"]')).toHaveCount(0);
  await expect(pagination(page).getByRole('link', { name: 'Page 1' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(pagination(page).getByRole('link', { name: 'Previous page' })).toHaveCount(0);

  await clickSettled(pagination(page).getByRole('link', { name: 'Next page' }));
  await expect(page).toHaveURL(`/music?q=${q}&page=2`);
  await expect(cards(page)).toHaveCount(SERIES - PER_PAGE);
  await expect
    .poll(() => titles(page))
    .toEqual(['05', '04', '03', '02', '01', '00'].map((n) => `${prefix} ${n}`));
  await expect(pagination(page).getByRole('link', { name: 'Page 2' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(pagination(page).getByRole('link', { name: 'Next page' })).toHaveCount(0);
  await expect(pagination(page).getByRole('link', { name: 'Previous page' })).toHaveAttribute(
    'rel',
    'prev',
  );
  // The head follows the page (with JS, after a client navigation too).
  await expect.poll(() => linkHref(page, 'canonical')).toBe(`${origin}/music?q=${q}&page=2`);
  expect(await linkHref(page, 'prev')).toBe(`${origin}/music?q=${q}`);
  await expect(page.locator('head link[rel="next"]')).toHaveCount(0);
  // The page's JSON-LD is its own tracks only.
  const ld = await page.locator('script[type="application/ld+json"]').allTextContents();
  const recordings = ld.filter((s) => s.includes('"MusicRecording"'));
  expect(recordings).toHaveLength(SERIES - PER_PAGE);

  await clickSettled(pagination(page).getByRole('link', { name: 'Previous page' }));
  await expect(page).toHaveURL(`/music?q=${q}`);
  await expect.poll(() => titles(page)).toEqual(first);
});

test('/music: the type filter runs with the search across the pages', async ({ page }) => {
  const q = encodeURIComponent(prefix).replace(/%20/g, '+');
  await page.goto(`/music?q=${q}`);
  await page
    .getByRole('navigation', { name: 'Filter tracks' })
    .getByRole('link', { name: 'Mixes' })
    .click();
  await expect(page).toHaveURL(`/music?q=${q}&type=mixes`);
  await expect(cards(page)).toHaveCount(PER_PAGE);
  // The newest four of the series are singles: the mixes start at 25.
  await expect.poll(async () => (await titles(page))[0]).toBe(`${prefix} 25`);
  await clickSettled(pagination(page).getByRole('link', { name: 'Next page' }));
  await expect(page).toHaveURL(`/music?q=${q}&type=mixes&page=2`);
  await expect.poll(() => titles(page)).toEqual([`${prefix} 01`, `${prefix} 00`]);
  // Choosing a filter starts again at its first page, the search kept.
  await page
    .getByRole('navigation', { name: 'Filter tracks' })
    .getByRole('link', { name: 'All' })
    .click();
  await expect(page).toHaveURL(`/music?q=${q}`);
  await expect(cards(page)).toHaveCount(PER_PAGE);
});

test('/music: a page past the end shows the last page; a new search starts at page 1', async ({
  page,
  javaScriptEnabled,
}) => {
  const q = encodeURIComponent(prefix).replace(/%20/g, '+');
  await page.goto(`/music?q=${q}&page=99`);
  await expect(cards(page)).toHaveCount(SERIES - PER_PAGE);
  expect(await linkHref(page, 'canonical')).toBe(`${origin}/music?q=${q}&page=2`);

  const search = page.getByPlaceholder('Search tracks...');
  await search.fill(`${prefix} 1`);
  if (!javaScriptEnabled) await search.press('Enter');
  await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(`${prefix} 1`);
  await expect(page).not.toHaveURL(/page=/);
  await page.waitForLoadState();
  await expect(cards(page)).toHaveCount(10);
  await expect(pagination(page)).toHaveCount(0);
});

test('/shows: past shows paged as an archive, most recent first', async ({ page }) => {
  // The last page holds the oldest: this series, long ago.
  await page.goto('/shows?past=999');
  const archive = pagination(page, 'Past shows pages');
  const current = archive.locator('[aria-current="page"]');
  const last = Number((await current.textContent())?.replace(/\D/g, ''));
  expect(last).toBeGreaterThan(1);
  expect(await linkHref(page, 'canonical')).toBe(`${origin}/shows?past=${last}`);
  const past = page.getByTestId('past-show');
  // The oldest of all (the other project's series may share its dates).
  await expect(past.last()).toContainText('Jan 1, 1990');
  const venues = await past.locator('p.text-muted-foreground').allTextContents();
  const ours = venues.filter((v) => v.includes(showPrefix));
  expect(ours.length).toBeGreaterThan(0);
  // Most recent first.
  expect(ours).toEqual([...ours].sort().reverse());

  await clickSettled(archive.getByRole('link', { name: 'Previous page' }));
  await expect(page).toHaveURL(last - 1 === 1 ? '/shows' : `/shows?past=${last - 1}`);
  await expect(pagination(page, 'Past shows pages').locator('[aria-current="page"]')).toHaveText(
    `Page ${last - 1}`,
  );
  await expect(page.getByTestId('past-show')).toHaveCount(20);
  // The upcoming shows stay on every page of the archive.
  await expect(page.getByRole('heading', { name: 'Upcoming Shows', level: 1 })).toBeVisible();
});
