import type { Locator, Page } from '@playwright/test';

import { expect, test } from './fixtures';
import { type CreatedMix, createMix as createMixWith, testPeaks } from './mix-helpers';

/**
 * The track page leads with the music (issue 36, decision 034), checked by geometry: what is
 * inside the first viewport, how wide the waveform and the cover are, no sideways scroll on a
 * phone; and a /music card keeps its actions on one row. Every track here is created by the
 * test (through the admin API, with the demo mix's audio) and given peaks through the model.
 */

// Each test uploads 4:28 of MP3 and stores peaks through a script before it looks at a page.
test.beforeEach(() => test.slow());

/** A Mix with a long title (two lines at 1280 px), a tracklist and peaks. */
async function createMix(page: Page): Promise<CreatedMix> {
  await page.goto('/music'); // the admin API wants a same-origin request
  return createMixWith(page, {
    title: 'Layout Mix: Last Train from Long Branch to the Carousel House',
    description: 'A set for the layout tests.\n\nSecond paragraph.',
    tracklist: '0:00 Opener - First Tune\n1:00 Second Artist - Second Tune [Shore Label]',
    peaks: testPeaks((column) => 20 + Math.round(100 * Math.abs(Math.sin(column / 23)))),
  });
}

async function box(locator: Locator) {
  await expect(locator).toBeVisible();
  const b = await locator.boundingBox();
  if (!b) throw new Error('no bounding box');
  return b;
}

/**
 * Where the first screen ends for the reader: the top of whatever is fixed to the foot of the
 * viewport (the player bar, the phone's bottom navigation), else the viewport's bottom.
 */
function foldLine(page: Page): Promise<number> {
  return page.evaluate(() => {
    let line = window.innerHeight;
    for (const el of document.querySelectorAll('body *')) {
      if (getComputedStyle(el).position !== 'fixed') continue;
      const r = el.getBoundingClientRect();
      if (r.height > 0 && r.bottom >= window.innerHeight - 1 && r.top > window.innerHeight / 2)
        line = Math.min(line, r.top);
    }
    return line;
  });
}

/** Entirely inside the first screen: in the viewport and clear of the bars fixed at its foot. */
async function expectAboveTheFold(page: Page, locator: Locator, what: string) {
  const b = await box(locator);
  const viewport = page.viewportSize()!;
  const fold = await foldLine(page);
  expect(b.y, `${what}: top`).toBeGreaterThanOrEqual(0);
  expect(b.x, `${what}: left`).toBeGreaterThanOrEqual(0);
  expect(b.x + b.width, `${what}: right`).toBeLessThanOrEqual(viewport.width);
  expect(b.y + b.height, `${what}: bottom (the first screen ends at ${fold})`).toBeLessThanOrEqual(
    fold,
  );
}

test.describe('the mix page leads with the music', () => {
  test('1280×800: cover, title, details, Play and a wide waveform above the fold', async ({
    adminPage: page,
    javaScriptEnabled,
  }) => {
    const mix = await createMix(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/music/${mix.id}`);

    const title = page.getByRole('heading', { level: 1, name: mix.title });
    const cover = page.getByRole('img', { name: `Cover of ${mix.title}` });
    const article = page.locator(`article[data-track-id="${mix.id}"]`);
    // With JS the site's Play button; without it the browser's own player stands in its place.
    const play = javaScriptEnabled
      ? page.getByRole('button', { name: `Play ${mix.title}` })
      : article.locator('audio[controls]');
    const waveform = javaScriptEnabled
      ? page.getByRole('slider', { name: `Seek in ${mix.title}` })
      : page.getByRole('img', { name: `Waveform of ${mix.title}` });

    await expectAboveTheFold(page, title, 'title');
    await expectAboveTheFold(page, cover, 'cover');
    await expectAboveTheFold(page, play, 'Play');
    await expectAboveTheFold(page, waveform, 'waveform');
    for (const text of ['Mix', 'Night Shore', 'Duration 4:28']) {
      await expectAboveTheFold(
        page,
        article.locator('header').getByText(text, { exact: true }).first(),
        text,
      );
    }

    const width = page.viewportSize()!.width;
    expect((await box(waveform)).width, 'waveform width').toBeGreaterThanOrEqual(0.5 * width);
    expect((await box(cover)).width, 'cover width').toBeLessThanOrEqual(0.36 * width);
    // The cover on the left, the title on its right.
    expect((await box(title)).x).toBeGreaterThan((await box(cover)).x + (await box(cover)).width);

    // The tracklist follows, each row a link to its place in the set.
    const rows = page.getByTestId('tracklist').getByRole('listitem');
    await expect(rows).toHaveCount(2);
    expect((await box(rows.first())).y).toBeGreaterThan((await box(waveform)).y);
    await expect(rows.nth(1).getByRole('link', { name: 'Play from 1:00' })).toHaveAttribute(
      'href',
      '?t=60',
    );

    // The whole row is the link's target (its ::after covers the row), and the time is a
    // link within the row's line of text, which WCAG 2.5.8 counts as an inline target: where
    // the mobile bar covers part of a row, no small box is left half hidden (Lighthouse's
    // target-size audit failed on a mix page whenever a time link crossed the bar's edge).
    const targets = await rows.evaluateAll((lis) =>
      lis.map((li) => {
        const r = li.getBoundingClientRect();
        const hit = document.elementFromPoint(r.right - 8, r.bottom - 6);
        const link = li.querySelector('a')!;
        return {
          rowIsLink: hit === link || link.contains(hit),
          linkDisplay: getComputedStyle(link).display,
          rowDisplay: getComputedStyle(li).display,
        };
      }),
    );
    for (const t of targets) {
      expect(t).toEqual({ rowIsLink: true, linkDisplay: 'inline-block', rowDisplay: 'list-item' });
    }

    await page.screenshot({ path: `/tmp/mix-page-1280-${javaScriptEnabled ? 'js' : 'nojs'}.png` });
  });

  test('390×844: no sideways scroll; title and Play in the first screen', async ({
    adminPage: page,
    javaScriptEnabled,
  }) => {
    const mix = await createMix(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/music/${mix.id}`);
    await expect(page.getByRole('heading', { level: 1, name: mix.title })).toBeVisible();
    const overflow = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(overflow.scroll, 'no horizontal scroll').toBeLessThanOrEqual(overflow.client);
    // Nor anything cut off at the right edge (the footer paints only inside its own box).
    const sticking = await page.evaluate(() =>
      [...document.querySelectorAll('article *, footer *')]
        .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .map((el) => `${el.tagName} ${el.textContent?.slice(0, 40) ?? ''}`),
    );
    expect(sticking, 'elements past the right edge').toEqual([]);

    const article = page.locator(`article[data-track-id="${mix.id}"]`);
    const play = javaScriptEnabled
      ? page.getByRole('button', { name: `Play ${mix.title}` })
      : article.locator('audio[controls]');
    await expectAboveTheFold(
      page,
      page.getByRole('heading', { level: 1, name: mix.title }),
      'title',
    );
    await expectAboveTheFold(page, play, 'Play');
    await page.screenshot({
      path: `/tmp/mix-page-390-${javaScriptEnabled ? 'js' : 'nojs'}.png`,
      fullPage: true,
    });
  });
});

test("/music: a card's actions share one row at 1280, 1024, 640 and 390 px", async ({
  adminPage: page,
  javaScriptEnabled,
}) => {
  const mix = await createMix(page);
  const card = page.locator(`article[data-track-id="${mix.id}"]`);
  // With JS: Play, Share, Add to queue, the heart and Download; without it the browser's own
  // player, the heart's form (a member) and Download.
  const actions = javaScriptEnabled
    ? card.getByRole('button').or(card.getByRole('link', { name: /^Download/ }))
    : card
        .locator('audio')
        .or(card.getByRole('button'))
        .or(card.getByRole('link', { name: /^Download/ }));
  const expectOneRow = async (state: string) => {
    const tops = await actions.evaluateAll((els) =>
      els.map((el) => Math.round(el.getBoundingClientRect().top)),
    );
    expect(tops.length, `${state}: the actions`).toBe(javaScriptEnabled ? 5 : 3);
    expect(new Set(tops).size, `${state}: their tops ${tops.join(', ')}`).toBe(1);
  };
  // 1280: four columns of 294 px; 1024: three; 640: two of 292 px, the narrowest card; 390: one.
  for (const width of [1280, 1024, 640, 390]) {
    await page.setViewportSize({ width, height: 900 });
    // The grid is paged and other tests add tracks meanwhile: the mix through the search.
    await page.goto(`/music?q=${encodeURIComponent(mix.title)}`);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `${width} px: no horizontal scroll`).toBeLessThanOrEqual(0);
    await card.scrollIntoViewIfNeeded();
    await expectOneRow(`${width} px`);
    if (javaScriptEnabled) {
      // "Pause" is the widest label.
      await card.getByRole('button', { name: `Play ${mix.title}` }).click();
      await expect(card.getByRole('button', { name: `Pause ${mix.title}` })).toBeVisible();
      await expectOneRow(`${width} px, playing`);
      await card.getByRole('button', { name: `Pause ${mix.title}` }).click();
      await expect(card.getByRole('button', { name: `Play ${mix.title}` })).toBeVisible();
    }
  }
});
