import fs from 'node:fs';
import path from 'node:path';

import { simpleParser } from 'mailparser';

import { e2eDataDir, expect, test } from './fixtures';

/**
 * The account's email, its verification link and the newsletter toggle (decisions 020 and
 * 030), JavaScript on and off. Each test registers a member and uses an address of its own;
 * the verification links are read from the .eml files the e2e server writes to its outbox.
 */

/** The verification links sent to `to`, oldest first (the mail worker writes them shortly). */
async function verificationLinks(to: string): Promise<string[]> {
  const outbox = path.join(e2eDataDir(), 'outbox');
  const found: { at: number; url: string }[] = [];
  for (const name of fs.existsSync(outbox) ? fs.readdirSync(outbox) : []) {
    if (!name.endsWith('.eml')) continue;
    const file = path.join(outbox, name);
    const mail = await simpleParser(fs.readFileSync(file));
    const address = Array.isArray(mail.to) ? mail.to[0] : mail.to;
    if (address?.value[0]?.address !== to) continue;
    const url = mail.text?.match(/https?:\/\/\S+\/account\/verify-email\/[A-Za-z0-9_-]+/)?.[0];
    if (url) found.push({ at: mail.date?.getTime() ?? fs.statSync(file).mtimeMs, url });
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.url);
}

test('a member gives an address, confirms it with the emailed link, then turns the newsletter on and off', async ({
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
  const status = page.getByTestId('email-status');
  const newsletter = form.getByLabel('Send me the newsletter');
  const save = form.getByRole('button', { name: 'Save email settings' });

  // No confirmed address: the newsletter waits for one. A bad address is refused.
  await expect(newsletter).toBeDisabled();
  await expect(form).toContainText(
    'You can turn the newsletter on once your email address is confirmed.',
  );
  await form.getByLabel('Email', { exact: true }).fill('not-an-email');
  await save.click();
  await expect(form.getByText('Please enter a valid email address.')).toBeVisible();

  // A new address is unconfirmed until its link is followed.
  await form.getByLabel('Email', { exact: true }).fill(email);
  await save.click();
  const toast = page.getByTestId('toast').first();
  await expect(toast).toContainText('Check your inbox');
  await expect(toast).toContainText(`We sent a link to ${email}`);
  await expect(status).toContainText(`${email} is unconfirmed`);
  await expect(newsletter).toBeDisabled();
  await expect.poll(() => verificationLinks(email), { timeout: 20_000 }).toHaveLength(1);

  // Sent again: the first link stops working.
  await page.getByRole('button', { name: 'Send the link again' }).click();
  await expect(page.getByTestId('toast').first()).toContainText(`We sent a new link to ${email}`);
  await expect.poll(() => verificationLinks(email), { timeout: 20_000 }).toHaveLength(2);
  const [first, latest] = await verificationLinks(email);
  const stale = await page.goto(first!);
  expect(stale?.status()).toBe(400);
  await expect(page.getByTestId('verify-email')).toContainText('Invalid link');

  const confirmed = await page.goto(latest!);
  expect(confirmed?.status()).toBe(200);
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByTestId('toast').first()).toContainText('Email address confirmed');
  await expect(status).toContainText(`${email} is confirmed.`);
  // The link works once.
  const again = await page.goto(latest!);
  expect(again?.status()).toBe(410);
  await expect(page.getByTestId('verify-email')).toContainText('This link was already used');

  await page.goto('/account');
  if (javaScriptEnabled) {
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  }
  await expect(newsletter).toBeEnabled();
  await newsletter.check();
  await save.click();
  await expect(page.getByTestId('toast').first()).toContainText(
    `You're subscribed to the newsletter at ${email}.`,
  );
  await page.reload();
  await expect(form.getByLabel('Email', { exact: true })).toHaveValue(email);
  await expect(newsletter).toBeChecked();

  await newsletter.uncheck();
  await save.click();
  await expect(page.getByTestId('toast').first()).toContainText("You won't get the newsletter.");
  await page.reload();
  await expect(newsletter).not.toBeChecked();
  await expect(form.getByLabel('Email', { exact: true })).toHaveValue(email);
});

test('a verification link asks for the login of its account first', async ({ page, browser }) => {
  const username = `link${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const email = `${username}@example.com`;
  await page.request.post('/auth', {
    form: {
      intent: 'register',
      username,
      password: 'link-password-1',
      confirmPassword: 'link-password-1',
    },
    maxRedirects: 0,
  });
  await page.goto('/account');
  await page.locator('form#account-email').getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Save email settings' }).click();
  await expect(page.getByTestId('email-status')).toContainText(`${email} is unconfirmed`);
  await expect.poll(() => verificationLinks(email), { timeout: 20_000 }).toHaveLength(1);
  const [link] = await verificationLinks(email);

  // Someone without the account's session (a mail scanner, the address's owner) confirms nothing.
  const stranger = await browser.newContext();
  try {
    const opened = await stranger.request.get(link!, { maxRedirects: 0 });
    expect(opened.status()).toBe(302);
    expect(opened.headers()['location']).toMatch(/^\/auth\?redirectTo=%2Faccount%2Fverify-email/);
  } finally {
    await stranger.close();
  }
  await page.goto('/account');
  await expect(page.getByTestId('email-status')).toContainText(`${email} is unconfirmed`);
});
