import type { Page } from '@playwright/test';

import { coverFile, dismissToast, expectToast, unique, withRunLock } from './admin-helpers';
import { expect, test } from './fixtures';
import { type CreatedMix, createMix as createMixWith, MIX_AUDIO, testPeaks } from './mix-helpers';

/**
 * Mixes (decision 034): the admin's tracklist with line-numbered errors, the /music Mixes
 * filter, the track page (tracklist, waveform SVG, deep links) and the player's "Now:" row.
 * Every track here is created by the test (through the admin API, with the demo mix's 4:28 of
 * generated MP3 as its audio) and given peaks of its own through the model.
 */

const TRACKLIST = [
  '0:00 Opener Artist - First Tune',
  '1:00 Second Artist - Second Tune [Shore Label]',
  '',
  '2:00 Third Artist - Third Tune',
].join('\n');

/** Peaks with one loud stretch in the middle. */
const PEAKS = testPeaks((column) => (column >= 150 && column < 250 ? 120 : 10));

/** A Mix of this spec's own, with its peaks stored unless `peaks: false`. */
function createMix(page: Page, options: { peaks?: boolean } = {}): Promise<CreatedMix> {
  return createMixWith(page, {
    title: 'E2E Mix',
    description: 'A set for the end-to-end tests.\n\nSecond paragraph.',
    tracklist: TRACKLIST,
    peaks: options.peaks === false ? null : PEAKS,
  });
}

/** The admin API wants a same-origin request: open the site first. */
async function openSite(page: Page) {
  await page.goto('/music');
}

test.describe('admin: a Mix with a tracklist', () => {
  test('bad rows are refused with their line numbers, then the Mix is created', async ({
    adminPage: page,
  }) => {
    test.slow();
    const title = unique('E2E Admin Mix');
    await page.goto('/admin/tracks/new');
    const dialog = page.getByRole('dialog', { name: 'Add New Track' });
    await dialog.getByLabel('Title', { exact: true }).fill(title);
    await dialog.getByLabel('Type').selectOption('Mix');
    await dialog.getByLabel('Duration').fill('1:30:00');
    await dialog.getByLabel('Description (optional)').fill('Two hours of the collective.');
    const tracklist = dialog.getByLabel('Tracklist (optional)');
    await tracklist.fill('0:00 A - B\nno time\n\n0:00 C - D\n1:31:00 E - F');
    await dialog.getByLabel('Cover image').setInputFiles(coverFile());
    await dialog.getByLabel('Audio file').setInputFiles(MIX_AUDIO);
    await dialog.getByRole('button', { name: 'Create Track' }).click();
    await expect(
      dialog.getByText('Line 2: "no" is not a start time', { exact: false }),
    ).toBeVisible();
    await expect(
      dialog.getByText('Line 4: starts at 0:00, not after line 1 (0:00): start times must go up'),
    ).toBeVisible();
    await expect(tracklist).toHaveAttribute('aria-invalid', 'true');
    // The text is kept for correcting.
    await expect(dialog.getByLabel('Tracklist (optional)')).toHaveValue(/no time/);

    // (A row after a typed duration is refused in the browser too: tracklist.test.ts.)
    // With no duration typed, the end of the audio (4:28) bounds the rows: only the server
    // knows it. The same dialog, sent again after the server's answer, then saves.
    const js = test.info().project.name === 'js';
    const pickFiles = async () => {
      // Without JavaScript the page came back from the server: files are picked again.
      await dialog.getByLabel('Cover image').setInputFiles(coverFile());
      await dialog.getByLabel('Audio file').setInputFiles(MIX_AUDIO);
    };
    await dialog.getByLabel('Duration').fill('');
    await tracklist.fill(`${TRACKLIST}\n5:00 Late Artist - Past The End`);
    if (!js) await pickFiles();
    await dialog.getByRole('button', { name: 'Create Track' }).click();
    await expect(
      dialog.getByText('Line 5: starts at 5:00, after the end of the track (4:28)'),
    ).toBeVisible();
    await expect(dialog.getByLabel('Title', { exact: true })).toHaveValue(title);
    await dialog.getByLabel('Tracklist (optional)').fill(TRACKLIST);
    if (!js) await pickFiles();
    await dialog.getByRole('button', { name: 'Create Track' }).click();
    await expectToast(page, 'Track created');
    await dismissToast(page);

    const listed = (await (await page.request.get('/api/tracks')).json()) as (CreatedMix & {
      type: string;
      durationSeconds: number;
      tracklist: unknown[];
    })[];
    const mix = listed.find((t) => t.title === title);
    expect(mix).toMatchObject({ type: 'Mix', duration: '4:28', durationSeconds: 268 });
    expect(mix?.tracklist).toEqual([
      { start: 0, artist: 'Opener Artist', title: 'First Tune', label: null },
      { start: 60, artist: 'Second Artist', title: 'Second Tune', label: 'Shore Label' },
      { start: 120, artist: 'Third Artist', title: 'Third Tune', label: null },
    ]);
    // The edit form gives the rows back as text.
    await page.goto(`/admin/tracks/${mix!.id}/edit`);
    await expect(
      page.getByRole('dialog', { name: 'Edit Track' }).getByLabel('Tracklist (optional)'),
    ).toHaveValue(TRACKLIST.replace('\n\n', '\n'));
    // A delete takes the featured lock (see withRunLock in admin-helpers.ts).
    await withRunLock('featured', async () => {
      const deleted = await page.request.delete(`/api/admin/tracks/${mix!.id}`, {
        headers: { Origin: new URL(page.url()).origin },
      });
      expect(deleted.ok()).toBe(true);
    });
  });
});

test.describe('the track page', () => {
  test('/music: the Mixes filter lists mixes only; cards link to their page', async ({
    adminPage: page,
  }) => {
    await openSite(page);
    const mix = await createMix(page, { peaks: false });
    // The grid is paged and other tests add mixes meanwhile: this one through the search, which
    // the filter keeps.
    const q = new URLSearchParams({ q: mix.title }).toString();
    await page.goto(`/music?${q}`);
    await page
      .getByRole('navigation', { name: 'Filter tracks' })
      .getByRole('link', { name: 'Mixes' })
      .click();
    await expect(page).toHaveURL(`/music?${q}&type=mixes`);
    await expect(
      page.getByRole('navigation', { name: 'Filter tracks' }).getByRole('link', { name: 'Mixes' }),
    ).toHaveAttribute('aria-current', 'page');
    const cards = page.getByTestId('track-card');
    await expect(cards.filter({ hasText: mix.title })).toHaveCount(1);
    await cards
      .filter({ hasText: mix.title })
      .getByRole('link', { name: mix.title, exact: true })
      .click();
    await expect(page).toHaveURL(new RegExp(`/music/${mix.id}$`));
    await expect(page.getByRole('heading', { level: 1, name: mix.title })).toBeVisible();
    // The demo singles are not mixes (the filter runs in the query, over every page).
    await page.goto('/music?q=Convention+Hall');
    await expect(cards.filter({ hasText: 'Convention Hall' }).first()).toBeVisible();
    await page.goto('/music?q=Convention+Hall&type=mixes');
    await expect(page.getByRole('heading', { name: 'No tracks found' })).toBeVisible();
  });

  test('cover, type, description, tracklist with times, waveform SVG and JSON-LD', async ({
    adminPage: page,
    javaScriptEnabled,
  }) => {
    test.slow(); // createMix stores peaks through a script of its own
    await openSite(page);
    const mix = await createMix(page);
    await page.goto(`/music/${mix.id}`);
    await expect(page).toHaveTitle(new RegExp(mix.title));
    await expect(page.getByRole('img', { name: `Cover of ${mix.title}` })).toBeVisible();
    await expect(page.getByText('Second paragraph.')).toBeVisible();
    const rows = page.getByTestId('tracklist').getByRole('listitem');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(1)).toContainText('1:00');
    await expect(rows.nth(1)).toContainText('Second Artist – Second Tune');
    await expect(rows.nth(1)).toContainText('[Shore Label]');
    await expect(rows.nth(1).getByRole('link')).toHaveAttribute('href', '?t=60');
    // One path, whatever the length; a slider once hydrated.
    const waveform = javaScriptEnabled
      ? page.getByRole('slider', { name: `Seek in ${mix.title}` })
      : page.getByRole('img', { name: `Waveform of ${mix.title}` });
    await expect(waveform).toBeVisible();
    expect(await page.locator('svg defs path').count()).toBe(1);
    const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
    expect(canonical).toMatch(new RegExp(`^http://localhost:\\d+/music/${mix.id}$`));
    const ld = await page.locator('script[type="application/ld+json"]').allTextContents();
    const recording = ld
      .map((t) => JSON.parse(t) as Record<string, unknown>)
      .find((d) => d['@type'] === 'MusicRecording');
    expect(recording).toMatchObject({ name: mix.title, duration: 'PT4M28S', url: canonical });
  });

  test('a track without peaks has no waveform; an unknown id is a 404', async ({
    adminPage: page,
  }) => {
    await openSite(page);
    const mix = await createMix(page, { peaks: false });
    await page.goto(`/music/${mix.id}`);
    await expect(page.getByTestId('tracklist')).toBeVisible();
    await expect(page.locator('svg defs path')).toHaveCount(0);
    await expect(page.getByRole('slider', { name: /Seek in/ })).toHaveCount(0);
    for (const id of ['999999', 'abc', '0']) {
      const response = await page.goto(`/music/${id}`);
      expect(response?.status()).toBe(404);
    }
  });

  test('?t=90 shows where it starts, and without JavaScript still lists every row', async ({
    adminPage: page,
    javaScriptEnabled,
  }) => {
    test.skip(javaScriptEnabled, 'the no-JS page');
    test.slow(); // createMix stores peaks through a script of its own
    await openSite(page);
    const mix = await createMix(page);
    await page.goto(`/music/${mix.id}?t=1m30s`);
    await expect(page.getByTestId('starts-at')).toHaveText('Starts at 1:30');
    // The browser's own player starts there too (a media fragment).
    await expect(page.locator('article audio')).toHaveAttribute('src', /#t=90$/);
    await expect(page.getByTestId('tracklist').getByRole('link')).toHaveText([
      'Play from 0:00',
      'Play from 1:00',
      'Play from 2:00',
    ]);
  });

  test('?t=90 opens the player at 1:30 with the right "Now:" row; rows and the waveform seek', async ({
    adminPage: page,
    javaScriptEnabled,
  }) => {
    test.skip(!javaScriptEnabled, 'the player needs JavaScript');
    test.slow(); // createMix stores peaks through a script of its own
    await openSite(page);
    const mix = await createMix(page);
    await page.goto(`/music/${mix.id}?t=90`);
    await expect(page.getByTestId('starts-at')).toHaveText('Starts at 1:30');
    const bar = page.getByRole('region', { name: 'Audio player' }).first();
    await expect(bar.getByTestId('player-title')).toHaveText(mix.title);
    await expect(bar).toContainText('1:30');
    await expect(bar.getByTestId('player-now')).toHaveText('Now: Second Artist – Second Tune');
    const slider = page.getByRole('slider', { name: `Seek in ${mix.title}` });
    await expect(slider).toHaveAttribute('aria-valuenow', '90');

    // Play starts at 1:30.
    await page.getByRole('button', { name: `Play ${mix.title}` }).click();
    await expect
      .poll(() =>
        page.evaluate(
          () => (document.getElementById('site-audio') as HTMLAudioElement).currentTime,
        ),
      )
      .toBeGreaterThanOrEqual(90);

    // A row seeks there and the "Now:" row follows.
    await page.getByTestId('tracklist').getByRole('link', { name: 'Play from 2:00' }).click();
    await expect(bar.getByTestId('player-now')).toHaveText('Now: Third Artist – Third Tune');
    await expect(page).toHaveURL(new RegExp(`/music/${mix.id}\\?t=90$`));
    await expect
      .poll(() =>
        page.evaluate(
          () => (document.getElementById('site-audio') as HTMLAudioElement).currentTime,
        ),
      )
      .toBeGreaterThanOrEqual(120);

    // The waveform is a slider: Home goes to the start, and the first row plays.
    await slider.focus();
    await page.keyboard.press('Home');
    await expect(bar.getByTestId('player-now')).toHaveText('Now: Opener Artist – First Tune');
    // It plays on from the start: by the time the value is read it may be a few seconds in,
    // but inside the first row (0:00–1:00), not at 2:00 where it was.
    await expect
      .poll(async () => Number(await slider.getAttribute('aria-valuenow')))
      .toBeLessThan(60);
    // The bar draws the current track's waveform once its peaks answer (GET /api/tracks/{id}/peaks).
    const peaks = await page.request.get(`/api/tracks/${mix.id}/peaks`);
    if (peaks.ok()) await expect(bar.getByTestId('waveform-slider')).toBeVisible();
    else await expect(bar.getByRole('slider', { name: 'Seek' })).toBeVisible();
  });
});
