import { expect, test } from './fixtures';

/**
 * A member's private podcast feed on /account (decision 037), JavaScript on and off: create →
 * the address is shown once (with a copy button when JavaScript runs) and works without cookies
 * → revoke → it answers 404.
 */
test('a member creates a private feed, sees its address once, then revokes it', async ({
  page,
  javaScriptEnabled,
  playwright,
  baseURL,
}) => {
  const username = `feed${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const registered = await page.request.post('/auth', {
    form: {
      intent: 'register',
      username,
      password: 'feed-password-1',
      confirmPassword: 'feed-password-1',
    },
    maxRedirects: 0,
  });
  expect(registered.status()).toBe(302);
  await page.goto('/account');
  if (javaScriptEnabled) {
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  }
  await expect(page.getByRole('heading', { name: 'Private podcast feed' })).toBeVisible();
  await page.getByRole('button', { name: 'Create my private feed' }).click();

  const field = page.getByLabel('Your private feed address (shown only this once)');
  await expect(field).toBeVisible();
  const url = await field.inputValue();
  expect(url).toMatch(/^http:\/\/localhost:\d+\/podcast\/private\/[A-Za-z0-9_-]{43}\.xml$/);
  await expect(page.getByRole('button', { name: 'Copy address' })).toHaveCount(
    javaScriptEnabled ? 1 : 0,
  );

  const app = await playwright.request.newContext({ baseURL }); // no cookies, like a podcast app
  try {
    expect((await app.get(url)).status()).toBe(200);

    // Shown once: the page, loaded again, only says a feed exists.
    await page.goto('/account');
    await expect(page.getByTestId('feed-status')).toContainText('You have a private feed');
    await expect(page.getByText(url)).toHaveCount(0);
    expect(await page.content()).not.toContain(url);

    await page.getByRole('button', { name: 'Revoke my private feed' }).click();
    await expect(page.getByTestId('toast').first()).toContainText('Private feed revoked');
    await expect(page.getByRole('button', { name: 'Create my private feed' })).toBeVisible();
    expect((await app.get(url)).status()).toBe(404);
  } finally {
    await app.dispose();
  }
});
