import fs from 'node:fs';

import type { Page } from '@playwright/test';

import { fixture, unique } from './admin-helpers';
import { expect, test } from './fixtures';
import { catalogueStamp, lastPlayableTitle, PER_PAGE } from './queue-helpers';

/**
 * The player's queue stays every track while /music shows one page (issue 37): next from the
 * last card of page 1 plays the first track of page 2, previous from the first track wraps to
 * the last of the whole catalogue, and shuffle reaches tracks beyond page 1 — each through at
 * most one small fetch of GET /api/tracks/queue, never a page.
 *
 * The test makes 30 tracks of its own (3 s of MP3 each) so that the catalogue spans more than
 * one page whatever else is in the shared store, and asserts on them: other tests add tracks
 * meanwhile (newer than these, so these stay next to each other, newest first) and the oldest
 * track of the catalogue is asked of the API when it is needed.
 */

const OWN = 30;

const playerTitle = (page: Page) => page.getByTestId('player-title').first();

async function createTracks(page: Page, prefix: string): Promise<{ id: number; title: string }[]> {
  const made: { id: number; title: string }[] = [];
  const cover = fs.readFileSync(fixture('cover.jpg'));
  const audio = fs.readFileSync(fixture('short.mp3'));
  const origin = new URL(page.url()).origin;
  // One after another: each is newer than the one before (newest first: the last made leads).
  for (let i = 0; i < OWN; i++) {
    const title = `${prefix} ${String(i).padStart(2, '0')}`;
    const response = await page.request.post('/api/admin/tracks', {
      headers: { Origin: origin },
      multipart: {
        title,
        artist: 'Queue Test',
        type: 'Single',
        coverImage: { name: 'cover.jpg', mimeType: 'image/jpeg', buffer: cover },
        audioFile: { name: 'short.mp3', mimeType: 'audio/mpeg', buffer: audio },
      },
    });
    expect(response.status(), await response.text()).toBe(201);
    made.push((await response.json()) as { id: number; title: string });
  }
  return made;
}

async function deleteTracks(page: Page, tracks: { id: number }[]) {
  const origin = new URL(page.url()).origin;
  for (const t of tracks) {
    await page.request.delete(`/api/admin/tracks/${t.id}`, { headers: { Origin: origin } });
  }
}

test.describe('the queue over every track', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'needs JavaScript');

  test('next, previous and shuffle go beyond the page /music shows', async ({
    adminPage: page,
  }) => {
    test.slow(); // 30 uploads on a shared, busy server
    await page.goto('/music');
    const prefix = unique('Queue walk');
    const own = await createTracks(page, prefix);
    try {
      // Newest first: own[OWN - 1] leads. The position of each of them in the catalogue moves
      // when other tests add tracks, their order does not.
      const newestFirst = own.map((t) => t.title).reverse();

      await page.goto('/music');
      await expect(page.locator('article[data-track-id] button').first()).toBeVisible();
      const cards = page.locator('article[data-track-id] h3');
      await expect(cards).toHaveCount(PER_PAGE);
      const pageTitles = await cards.allTextContents();
      const last = pageTitles.at(-1)!;
      expect(last.startsWith(prefix), `${last} is one of this test's tracks`).toBe(true);
      const after = newestFirst[newestFirst.indexOf(last) + 1];
      expect(after, 'an own track follows the last card').toBeDefined();

      // Play the last card of page 1, then next: the first track of page 2.
      await page.getByRole('button', { name: `Play ${last}`, exact: true }).click();
      await expect(playerTitle(page)).toHaveText(last);
      const requests: string[] = [];
      page.on('request', (r) => requests.push(new URL(r.url()).pathname));
      await page.getByRole('button', { name: 'Next track' }).click();
      await expect(playerTitle(page)).toHaveText(after!);
      expect(pageTitles).not.toContain(after);
      // No page or loader data on the way: at most the queue's JSON, besides the new track's
      // own audio and waveform (and the scripts the bar loads on demand).
      const others = requests.filter(
        (p) =>
          p !== '/api/tracks/queue' &&
          p !== '/api/plays' &&
          p !== '/api/plays/token' &&
          // The browser's own request for the tab's icon (the Media Session shows it too).
          p !== '/favicon.svg' &&
          p !== '/__manifest' &&
          !/^\/(build|uploads)\//.test(p) &&
          !/^\/api\/tracks\/\d+\/peaks$/.test(p),
      );
      expect(others, others.join(', ')).toEqual([]);
      await page.getByRole('button', { name: 'Previous track' }).click();
      await expect(playerTitle(page)).toHaveText(last);

      // Previous from the first track wraps to the last track of the whole catalogue. Other
      // tests add tracks meanwhile, and the player then rightly finds a newer one before the
      // first card: an attempt during which the catalogue changed is made again.
      for (let attempt = 1; ; attempt++) {
        const stamp = await catalogueStamp(page);
        await page.goto('/music');
        await expect(page.locator('article[data-track-id] button').first()).toBeVisible();
        const first = (await cards.first().textContent()) ?? '';
        const last = await lastPlayableTitle(page);
        await page.getByRole('button', { name: `Play ${first}`, exact: true }).click();
        await expect(playerTitle(page)).toHaveText(first);
        await page.getByRole('button', { name: 'Previous track' }).click();
        await expect(playerTitle(page)).not.toHaveText(first);
        const wrapped = (await playerTitle(page).textContent()) ?? '';
        if ((await catalogueStamp(page)) !== stamp && attempt < 10) continue;
        expect(wrapped).toBe(last);
        expect(pageTitles).not.toContain(wrapped);
        break;
      }

      // Shuffle: a different track each time, and some beyond page 1.
      await page.getByRole('button', { name: 'Shuffle' }).click();
      let current = (await playerTitle(page).textContent()) ?? '';
      let beyond = 0;
      for (let i = 0; i < 20 && beyond < 2; i++) {
        await page.getByRole('button', { name: 'Next track' }).click();
        await expect(playerTitle(page)).not.toHaveText(current);
        current = (await playerTitle(page).textContent()) ?? '';
        if (!pageTitles.includes(current)) beyond++;
      }
      expect(beyond).toBeGreaterThan(0);
    } finally {
      await deleteTracks(page, own);
    }
  });
});
