import { expect, test } from './fixtures';

/**
 * Decision 012: the page's modules are requested only once the page has loaded, and the page
 * then hydrates (the site-wide player's buttons replace the native audio fallbacks).
 */
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'hydration needs JavaScript');

for (const path of ['/', '/music', '/blog', '/shows']) {
  test(`${path}: scripts start after load, then the page hydrates`, async ({ browser }) => {
    const context = await browser.newContext(); // empty cache: every module is fetched
    const page = await context.newPage();
    await page.goto(path, { waitUntil: 'load' });
    // Remix's browser entry ran: the router exists.
    await page.waitForFunction(() => '__remixRouter' in window);
    const timing = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const scripts = performance
        .getEntriesByType('resource')
        .filter((e) => /\/build\/.*\.js$/.test(new URL(e.name).pathname));
      return {
        loadEventStart: nav.loadEventStart,
        scripts: scripts.length,
        firstScriptStart: Math.min(...scripts.map((e) => e.startTime)),
      };
    });
    expect(timing.scripts).toBeGreaterThan(3);
    expect(timing.firstScriptStart).toBeGreaterThanOrEqual(timing.loadEventStart);
    // Nothing is left in the renamed form, and exactly one module script ran.
    await expect(page.locator('link[rel="x-deferred-modulepreload"]')).toHaveCount(0);
    await expect(page.locator('script[type="module"]')).toHaveCount(1);
    await context.close();
  });
}

test('a card plays in the site-wide player once hydrated', async ({ page }) => {
  await page.goto('/music');
  const first = page.locator('[data-testid="track-card"]:not(:has([data-locked])) h3').first();
  const title = (await first.textContent())?.trim() ?? '';
  await page.getByRole('button', { name: `Play ${title}`, exact: true }).click();
  await expect(page.getByRole('button', { name: `Pause ${title}`, exact: true })).toBeVisible();
});

test('text typed in the music search before hydration is searched for once hydrated', async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage(); // not the fixture's page: no wait for hydration
  // Hold the page's modules back until the text is typed: hydration cannot start before.
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/build\/.*\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto('/music', { waitUntil: 'load' });
  await page.getByPlaceholder('Search tracks...').fill('zz-typed-early');
  expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBeUndefined();
  release();
  await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('zz-typed-early');
  await expect(page.getByRole('heading', { name: 'No tracks found' })).toBeVisible();
  await context.close();
});
