import { expect, test } from './fixtures';

/**
 * The account's email and newsletter toggle (decision 020), JavaScript on and off. Each
 * test registers a member and uses an address of its own.
 */
test('a member saves an email address and turns the newsletter on, then off', async ({
  page,
  javaScriptEnabled,
}) => {
  const username = `mail${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const email = `${username}@example.com`;
  const registered = await page.request.post('/auth', {
    form: {
      intent: 'register',
      username,
      password: 'mail-password-1',
      confirmPassword: 'mail-password-1',
    },
    maxRedirects: 0,
  });
  expect(registered.status()).toBe(302);
  await page.goto('/account');
  if (javaScriptEnabled) {
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  }
  const form = page.locator('form#account-email');
  const newsletter = form.getByLabel('Send me the newsletter');
  const save = form.getByRole('button', { name: 'Save email settings' });

  // The newsletter needs an address; a bad address is refused.
  await newsletter.check();
  await save.click();
  await expect(form.getByText('Enter your email to get the newsletter')).toBeVisible();
  await form.getByLabel('Email').fill('not-an-email');
  await save.click();
  await expect(form.getByText('Please enter a valid email address.')).toBeVisible();

  await form.getByLabel('Email').fill(email);
  await newsletter.check();
  await save.click();
  const toast = page.getByTestId('toast').first();
  await expect(toast).toContainText('Email settings saved');
  await expect(toast).toContainText(`You're subscribed to the newsletter at ${email}.`);
  await page.reload();
  await expect(form.getByLabel('Email')).toHaveValue(email);
  await expect(newsletter).toBeChecked();

  await newsletter.uncheck();
  await save.click();
  await expect(page.getByTestId('toast').first()).toContainText("You won't get the newsletter.");
  await page.reload();
  await expect(newsletter).not.toBeChecked();
  await expect(form.getByLabel('Email')).toHaveValue(email);
});
