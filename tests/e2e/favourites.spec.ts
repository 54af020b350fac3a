import type { Browser, Page } from '@playwright/test';

import { expect, logIn, test } from './fixtures';

/**
 * Favourites in the account and deleting the account (decision 019), JavaScript on and off.
 * Each test registers a member of its own.
 */

const newMember = () => ({
  username: `fav${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`,
  password: 'fav-password-1',
});

async function register(page: Page, member: { username: string; password: string }) {
  const response = await page.request.post('/auth', {
    form: { intent: 'register', ...member, confirmPassword: member.password },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
}

/** A seeded track near the end of /music (tracks other tests add come first). */
/** The grid's last page (a page past the end shows it): the oldest tracks, the seeded ones. */
const OLDEST_TRACKS = '/music?page=999999';

async function lastPlayableTitle(page: Page): Promise<string> {
  const titles = await page
    .locator('article[data-track-id]:not([data-locked]) h3')
    .allTextContents();
  return titles.at(-1)!.trim();
}

async function otherBrowser(browser: Browser, javaScriptEnabled: boolean, baseURL: string) {
  const context = await browser.newContext({ javaScriptEnabled, baseURL });
  return { context, page: await context.newPage() };
}

test('a member hearts a track and finds it in /account/favourites on another browser', async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
}) => {
  const member = newMember();
  await register(page, member);
  await page.goto(OLDEST_TRACKS);
  const title = await lastPlayableTitle(page);
  // With JS the heart answers at once and saves in the background: wait for the save.
  const saved = javaScriptEnabled
    ? page.waitForResponse(
        (r) => r.url().includes('/api/favorites/') && r.request().method() === 'PUT',
      )
    : null;
  await page.getByRole('button', { name: `Add ${title} to favourites` }).click();
  await expect(
    page.getByRole('button', { name: `Remove ${title} from favourites` }),
  ).toHaveAttribute('aria-pressed', 'true');
  if (saved) expect((await saved).status()).toBe(200);
  if (!javaScriptEnabled)
    await expect(page.getByTestId('toast').first()).toContainText('Added to your favourites');

  const other = await otherBrowser(browser, javaScriptEnabled, baseURL!);
  try {
    await logIn(other.page, member);
    await other.page.goto('/account/favourites');
    if (javaScriptEnabled) {
      await other.page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    }
    const list = other.page.getByTestId('favourites');
    await expect(list.locator('h3')).toHaveText([title]);
    if (javaScriptEnabled) {
      await other.page.getByRole('button', { name: 'Play all' }).click();
      await expect(other.page.getByTestId('player-title').first()).toHaveText(title);
    } else {
      await expect(list.locator('audio[controls]')).toHaveCount(1);
    }
    // Un-hearting there empties the list.
    const removed = javaScriptEnabled
      ? other.page.waitForResponse(
          (r) => r.url().includes('/api/favorites/') && r.request().method() === 'DELETE',
        )
      : null;
    await other.page.getByRole('button', { name: `Remove ${title} from favourites` }).click();
    if (removed) expect((await removed).status()).toBe(204);
    if (javaScriptEnabled) {
      await expect(
        other.page.getByRole('button', { name: `Add ${title} to favourites` }),
      ).toBeVisible();
    } else {
      // The form posts and redirects back to the list, without the track.
      await expect(other.page.getByTestId('toast').first()).toContainText(
        'Removed from your favourites',
      );
    }
    await other.page.goto('/account/favourites');
    await expect(other.page.getByText('No favourites yet')).toBeVisible();
  } finally {
    await other.context.close();
  }
});

test('favourites kept in the browser before logging in are merged into the account', async ({
  page,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, 'local favourites need JavaScript');
  const member = newMember();
  await page.goto(OLDEST_TRACKS);
  const title = await lastPlayableTitle(page);
  await page.getByRole('button', { name: `Add ${title} to favourites` }).click();
  await expect(page.getByRole('button', { name: `Remove ${title} from favourites` })).toBeVisible();

  await register(page, member);
  await page.goto('/account/favourites');
  await expect
    .poll(
      async () =>
        ((await (await page.request.get('/api/favorites')).json()) as { trackIds: number[] })
          .trackIds.length,
    )
    .toBe(1);
  await page.reload();
  await expect(page.getByTestId('favourites').locator('h3')).toHaveText([title]);
});

test('a member deletes the account after confirming with the password', async ({ page }) => {
  const member = newMember();
  await register(page, member);
  await page.goto('/account');
  await page.getByRole('link', { name: 'Delete my account' }).click();
  await expect(page).toHaveURL(/\/account\/delete$/);
  const dialog = page.getByRole('dialog', { name: 'Delete my account' });
  await dialog.getByLabel('Your password').fill('not-the-password');
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(dialog.getByText('Password is incorrect')).toBeVisible();
  await dialog.getByLabel('Your password').fill(member.password);
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('toast').first()).toContainText('Account deleted');
  // Logged out, and the account is gone.
  expect((await page.request.get('/api/favorites')).status()).toBe(401);
  const login = await page.request.post('/auth', {
    form: { intent: 'login', ...member },
    maxRedirects: 0,
  });
  expect(login.status()).toBe(400);
});
