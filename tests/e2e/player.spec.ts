import type { Page } from '@playwright/test';

import { expect, test } from './fixtures';
import { catalogueStamp, forgetPlayer, lastPlayableTitle, oldestPlayable } from './queue-helpers';

/**
 * The persistent player against the real app: one <audio id="site-audio"> that
 * survives client-side navigations, next/previous wrap, keyboard shortcuts, seeking, the
 * fallback file and the restore after a reload. Chromium runs with
 * --autoplay-policy=no-user-gesture-required (playwright.config.ts).
 */

type AudioState = { src: string | null; paused: boolean; time: number; same: boolean };

/** Reads the site audio element, and whether it is the element remembered by `remember`. */
const audioState = (page: Page) =>
  page.evaluate((): AudioState => {
    const a = document.getElementById('site-audio') as HTMLAudioElement | null;
    const w = window as unknown as { __siteAudio?: HTMLAudioElement };
    return {
      src: a?.getAttribute('src') ?? null,
      paused: a?.paused ?? true,
      time: a?.currentTime ?? 0,
      same: !!a && w.__siteAudio === a,
    };
  });

const remember = (page: Page) =>
  page.evaluate(() => {
    (window as unknown as { __siteAudio?: Element | null }).__siteAudio =
      document.getElementById('site-audio');
  });

/** A client-side navigation through Remix's router (what a link click does). */
async function navigate(page: Page, path: string) {
  await page.evaluate((to) => {
    const w = window as unknown as { __remixRouter: { navigate: (to: string) => unknown } };
    void w.__remixRouter.navigate(to);
  }, path);
  await page.waitForURL((url) => url.pathname === path.split('?')[0]);
}

const playerTitle = (page: Page) => page.getByTestId('player-title').first();

async function openMusic(page: Page, path = '/music') {
  await page.goto(path);
  // Hydrated: the cards' native players were swapped for the global player's buttons.
  await expect(page.locator('article[data-track-id] button').first()).toBeVisible();
  await expect(page.locator('article[data-track-id] audio')).toHaveCount(0);
}

/** The titles of the cards that play (a members-only card another test made is locked). */
async function trackTitles(page: Page): Promise<string[]> {
  return page.locator('article[data-track-id]:not([data-locked]) h3').allTextContents();
}

/*
 * The list is newest first, and the admin tests create, rename and delete tracks (and blog
 * posts) meanwhile: a test that streams a track for a while, or loads one again later, takes
 * a seeded one, from the end of the catalogue, and finds its card by searching /music for it
 * (the grid is one page of the catalogue, issue 37; the queue stays every track).
 */
async function openSeeded(page: Page, fromEnd = 1): Promise<{ id: number; title: string }> {
  const track = (await oldestPlayable(page)).at(-fromEnd)!;
  await openMusic(page, `/music?q=${encodeURIComponent(track.title)}`);
  return track;
}

test.describe('with JavaScript', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'needs JavaScript');

  test('keeps playing through five navigations, including a blog post, a 404 and /admin', async ({
    adminPage: page,
  }) => {
    const { title } = await openSeeded(page);
    await page.getByRole('button', { name: `Play ${title}`, exact: true }).click();
    await expect.poll(async () => (await audioState(page)).time).toBeGreaterThan(0.5);
    await remember(page);

    const blogPost = await page.evaluate(async () => {
      const res = await fetch('/api/blog');
      const posts = (await res.json()) as { slug: string }[];
      return posts.at(-1)?.slug ?? null;
    });
    const stops = [
      '/',
      '/gallery',
      blogPost ? `/blog/${blogPost}` : '/blog',
      '/no-such-page',
      '/admin',
    ];
    let last = (await audioState(page)).time;
    for (const stop of stops) {
      await navigate(page, stop);
      await expect
        .poll(async () => (await audioState(page)).time, { message: `still playing on ${stop}` })
        .toBeGreaterThan(last + 0.3);
      const s = await audioState(page);
      expect(s.same, `same <audio> element on ${stop}`).toBe(true);
      expect(s.paused).toBe(false);
      last = s.time;
    }
    expect(await page.locator('audio#site-audio').count()).toBe(1);
  });

  test('next and previous wrap around the queue', async ({ userPage: page }) => {
    // The queue is the live catalogue, newest first, and other tests add tracks meanwhile (the
    // player-queue test makes thirty): the player then rightly finds a newer track before the
    // first card. An attempt during which the catalogue changed says nothing about the wrap
    // and is made again; one over an unchanged catalogue must pass. A member's pages and API
    // answers are never kept (`private, no-store`), by the page cache or by the browser's (a
    // visitor's are `max-age=0, stale-while-revalidate=60`: Chromium may answer a repeated
    // request from its cache while it revalidates): the page, the queue and the check read the
    // same catalogue.
    // Each attempt is a new listener: a player that restored the last attempt's track would
    // start there rather than at the first card.
    for (let attempt = 1; ; attempt++) {
      await forgetPlayer(page);
      const stamp = await catalogueStamp(page);
      await openMusic(page);
      const titles = await trackTitles(page);
      expect(titles.length).toBeGreaterThan(1);
      // The queue is every track, not the page (issue 37): the last is the catalogue's.
      const last = await lastPlayableTitle(page);
      // Opening /music queued every track at the first one under /uploads/audio/.
      await expect(playerTitle(page)).toHaveText(titles[0]);
      const seen: string[] = [];
      for (const button of ['Previous track', 'Next track', 'Next track']) {
        const before = (await playerTitle(page).textContent()) ?? '';
        await page.getByRole('button', { name: button }).click();
        await expect(playerTitle(page)).not.toHaveText(before);
        seen.push((await playerTitle(page).textContent()) ?? '');
      }
      if ((await catalogueStamp(page)) !== stamp && attempt < 10) continue;
      // From the first to the catalogue's last, on to the first, then the second.
      expect(seen).toEqual([last, titles[0], titles[1]]);
      break;
    }
  });

  test('keyboard: Space toggles, Ctrl+Right next, Ctrl+Left previous, not in inputs', async ({
    page,
  }) => {
    await openMusic(page);
    const titles = await trackTitles(page);
    await page.locator('h1').first().click();
    await page.keyboard.press('Space');
    await expect.poll(async () => (await audioState(page)).paused).toBe(false);
    await page.keyboard.press('Control+ArrowRight');
    await expect(playerTitle(page)).toHaveText(titles[1]);
    await page.keyboard.press('Control+ArrowLeft');
    await expect(playerTitle(page)).toHaveText(titles[0]);
    await page.keyboard.press('Space');
    await expect.poll(async () => (await audioState(page)).paused).toBe(true);

    // In the search box the keys are the box's: nothing plays, the track stays.
    const search = page.getByRole('searchbox').or(page.getByLabel('Search tracks')).first();
    await search.focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('Control+ArrowRight');
    // Proof by what follows, not by waiting a while: the same two keys outside the box now
    // play and go to the second track. Had the box's keys counted too, Space would have
    // paused again and Ctrl+Right gone to the third.
    await search.blur();
    await expect(playerTitle(page)).toHaveText(titles[0]);
    await page.keyboard.press('Space');
    await expect.poll(async () => (await audioState(page)).paused).toBe(false);
    await page.keyboard.press('Control+ArrowRight');
    await expect(playerTitle(page)).toHaveText(titles[1]);
    await expect.poll(async () => (await audioState(page)).paused).toBe(false);
  });

  test('seeking to 20 s resumes playback near 20 s', async ({ page }) => {
    const last = await openSeeded(page);
    // The demo tracks get their waveform from the media queue (decision 035): once this one
    // has it, the bar's seek control is the waveform slider (5 s an arrow key).
    await expect
      .poll(async () => (await page.request.get(`/api/tracks/${last.id}/peaks`)).status(), {
        timeout: 30_000,
      })
      .toBe(200);
    await page.getByRole('button', { name: `Play ${last.title}`, exact: true }).click();
    await expect.poll(async () => (await audioState(page)).time).toBeGreaterThan(0.3);
    const slider = page.getByRole('slider', { name: 'Seek' });
    await expect(slider).toHaveAttribute('aria-valuetext', / of /);
    await slider.focus();
    await page.keyboard.press('Home');
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    // Four steps of 5 s from the start: 20 s, and playing on from there (read as soon as it
    // is there, so at most a few seconds later; a fifth step would be 25 s).
    await expect.poll(async () => (await audioState(page)).time).toBeGreaterThanOrEqual(20);
    const s = await audioState(page);
    expect(s.paused).toBe(false);
    expect(s.time).toBeLessThan(24);
    await expect(slider).toHaveAttribute('aria-valuetext', /^0:2\d of /);
  });

  test('a track played to its end is reported once to /api/plays (decision 024)', async ({
    page,
  }) => {
    const { title } = await openSeeded(page);
    // The beacon's body is not visible to the test; the server's 204 says it named a track.
    const beacons: number[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/api/plays') && r.request().method() === 'POST')
        beacons.push(r.status());
    });
    await page.getByRole('button', { name: `Play ${title}`, exact: true }).click();
    await expect.poll(async () => (await audioState(page)).time).toBeGreaterThan(0.2);
    // A few seconds were heard, not 30: nothing is reported yet. Then jump close to the end.
    expect(beacons).toEqual([]);
    await page.evaluate(() => {
      const a = document.getElementById('site-audio') as HTMLAudioElement;
      a.loop = false;
      a.currentTime = Math.max(0, a.duration - 0.5);
    });
    await expect.poll(() => beacons.length, { timeout: 10_000 }).toBe(1);
    expect(beacons).toEqual([204]);
  });

  test('a broken audio file falls back to the fallback file', async ({ page }) => {
    await openMusic(page);
    const titles = await trackTitles(page);
    const src = (await audioState(page)).src;
    expect(src).toContain('/uploads/audio/');
    await page.route(`**${src}`, (route) => route.fulfill({ status: 404, body: 'gone' }));
    await page.getByRole('button', { name: `Play ${titles[0]}`, exact: true }).click();
    await expect.poll(async () => (await audioState(page)).src).toBe('/uploads/audio/fallback.mp3');
    await expect.poll(async () => (await audioState(page)).time).toBeGreaterThan(0.3);
  });

  test('the player is restored, paused, after a full page load', async ({ page }) => {
    // Not the first of the queue, so the restore is of the track that played.
    const { title } = await openSeeded(page, 2);
    await page.getByRole('button', { name: `Play ${title}`, exact: true }).click();
    await expect.poll(async () => (await audioState(page)).time).toBeGreaterThan(2);
    await page.goto('/gallery');
    await expect(playerTitle(page)).toHaveText(title);
    const s = await audioState(page);
    expect(s.paused).toBe(true);
    expect(s.time).toBeGreaterThan(1);
    await expect(page.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  });

  test('/music?track={id} loads that track', async ({ page }) => {
    const track = (await oldestPlayable(page)).at(-2)!;
    await page.goto(`/music?track=${track.id}`);
    await expect(playerTitle(page)).toHaveText(track.title);
  });
});

test.describe('without JavaScript', () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled, 'checks the server HTML');

  test('every track card that plays holds a native player that can seek', async ({
    page,
    request,
  }) => {
    await page.goto('/music');
    const players = page.locator('article[data-track-id] audio[controls]');
    const count = await players.count();
    expect(count).toBeGreaterThan(0);
    expect(count).toBe(await page.locator('article[data-track-id]:not([data-locked])').count());
    await expect(players.first()).toHaveAttribute('preload', 'none');
    const src = await players.first().getAttribute('src');
    expect(src).toMatch(/^\/uploads\/audio\//);
    const res = await request.get(src ?? '', { headers: { Range: 'bytes=0-99' } });
    expect(res.status()).toBe(206);
    expect((await res.body()).length).toBe(100);
  });
});

test.describe('media serving', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'HTTP only: run once');

  test('ranges, 416, 304 and traversal', async ({ request }) => {
    const head = await request.get('/uploads/audio/fallback.mp3');
    expect(head.status()).toBe(200);
    expect(head.headers()['accept-ranges']).toBe('bytes');
    expect(head.headers()['content-type']).toBe('audio/mpeg');
    const size = Number(head.headers()['content-length']);

    const first = await request.get('/uploads/audio/fallback.mp3', {
      headers: { Range: 'bytes=0-99' },
    });
    expect(first.status()).toBe(206);
    expect(first.headers()['content-range']).toBe(`bytes 0-99/${size}`);
    expect((await first.body()).length).toBe(100);

    const open = await request.get('/uploads/audio/fallback.mp3', {
      headers: { Range: `bytes=${size - 10}-` },
    });
    expect(open.status()).toBe(206);
    expect((await open.body()).length).toBe(10);

    const suffix = await request.get('/uploads/audio/fallback.mp3', {
      headers: { Range: 'bytes=-20' },
    });
    expect(suffix.status()).toBe(206);
    expect(suffix.headers()['content-range']).toBe(`bytes ${size - 20}-${size - 1}/${size}`);

    const past = await request.get('/uploads/audio/fallback.mp3', {
      headers: { Range: `bytes=${size}-` },
    });
    expect(past.status()).toBe(416);
    expect(past.headers()['content-range']).toBe(`bytes */${size}`);

    const again = await request.get('/uploads/audio/fallback.mp3', {
      headers: { 'If-None-Match': head.headers()['etag'] },
    });
    expect(again.status()).toBe(304);

    for (const bad of [
      '/uploads/%2e%2e/.env',
      '/uploads/..%2f.env',
      '/uploads/audio/..%2F..%2F.env',
    ]) {
      expect((await request.get(bad)).status(), bad).toBe(404);
    }
  });
});
