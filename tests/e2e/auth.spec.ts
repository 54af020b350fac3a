import type { Page } from '@playwright/test';

import { ADMIN, expect, test } from './fixtures';

/** A fresh username per test (the tests share one database). */
const uniqueName = (prefix: string) =>
  `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

const toast = (page: Page) => page.getByTestId('toast');
const loginForm = (page: Page) => page.locator('#login-form');
const registerForm = (page: Page) => page.locator('#register-form');

async function register(page: Page, username: string, password: string, confirm = password) {
  await page.goto('/auth?tab=register');
  const form = registerForm(page);
  await form.getByLabel('Username').fill(username);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByLabel('Confirm Password').fill(confirm);
  await form.getByRole('button', { name: 'Create Account' }).click();
}

async function login(page: Page, username: string, password: string) {
  await page.goto('/auth');
  const form = loginForm(page);
  await form.getByLabel('Username').fill(username);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Login' }).click();
}

async function logout(page: Page) {
  await page.getByTestId('user-menu').locator('summary').click();
  await page.getByTestId('user-menu').getByRole('button', { name: 'Log out' }).click();
}

test.describe('accounts', () => {
  test('the auth page has Login and Register tabs as links, and the member perks', async ({
    page,
  }) => {
    await page.goto('/auth');
    const tabs = page.getByRole('navigation', { name: 'Account' });
    await expect(tabs.getByRole('link', { name: 'Login' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByText('Exclusive member-only content')).toBeVisible();
    await expect(page.getByText('Early access to new releases')).toBeVisible();
    await expect(page.getByText('Special event invitations')).toBeVisible();
    await tabs.getByRole('link', { name: 'Register' }).click();
    await expect(page).toHaveURL(/tab=register/);
    await expect(registerForm(page).getByLabel('Confirm Password')).toBeVisible();
  });

  test('register shows every validation message', async ({ page }) => {
    await page.goto('/auth?tab=register');
    const form = registerForm(page);
    await form.getByRole('button', { name: 'Create Account' }).click();
    await expect(form.getByText('Username must be at least 3 characters')).toBeVisible();
    await expect(form.getByText('Password must be at least 6 characters')).toBeVisible();

    await form.getByLabel('Username').fill('ab');
    await form.getByLabel('Password', { exact: true }).fill('12345');
    await form.getByRole('button', { name: 'Create Account' }).click();
    await expect(form.getByText('Username must be at least 3 characters')).toBeVisible();
    await expect(form.getByText('Password must be at least 6 characters')).toBeVisible();

    await form.getByLabel('Username').fill(uniqueName('mismatch'));
    await form.getByLabel('Password', { exact: true }).fill('secret-123');
    await form.getByLabel('Confirm Password').fill('secret-124');
    await form.getByRole('button', { name: 'Create Account' }).click();
    const confirm = form.getByLabel('Confirm Password');
    await expect(confirm).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByText("Passwords don't match")).toBeVisible();
    await expect(form.getByText('Username must be at least 3 characters')).toHaveCount(0);
  });

  test('register, log out, log in again; a taken name is refused', async ({ page }) => {
    const username = uniqueName('member');
    const password = 'member-pass-1';
    await register(page, username, password);
    await expect(page).toHaveURL(/\/$/);
    await expect(toast(page)).toContainText('Registration successful');
    await expect(toast(page)).toContainText(username);
    await expect(toast(page)).toContainText('Night Shore');
    // A plain user never sees the admin links.
    await expect(page.getByRole('link', { name: 'Admin Dashboard' })).toHaveCount(0);

    // A logged-in user is sent away from /auth.
    await page.goto('/auth');
    await expect(page).toHaveURL(/\/$/);

    await logout(page);
    await expect(page).toHaveURL(/\/$/);
    await expect(toast(page)).toContainText('Logged out');
    await expect(toast(page)).toContainText('You have been successfully logged out');
    await expect(page.getByRole('link', { name: 'Login / Register' })).toBeVisible();

    await register(page, username, 'another-pass');
    await expect(registerForm(page).getByText('Username already exists')).toBeVisible();

    await login(page, username, password);
    await expect(page).toHaveURL(/\/$/);
    await expect(toast(page)).toContainText('Login successful');
    await expect(toast(page)).toContainText(`Welcome back, ${username}!`);
  });

  test('login shows the required messages and the same failure for a wrong password and an unknown user', async ({
    page,
    javaScriptEnabled,
  }) => {
    await page.goto('/auth');
    const form = loginForm(page);
    await form.getByRole('button', { name: 'Login' }).click();
    await expect(form.getByText('Username is required')).toBeVisible();
    await expect(form.getByText('Password is required')).toBeVisible();

    await login(page, ADMIN.username, 'wrong-password');
    await expect(loginForm(page).getByRole('alert')).toContainText('Invalid username or password');
    // The server never sends the password back into the page (with JS the typed value stays).
    if (!javaScriptEnabled) await expect(loginForm(page).getByLabel('Password')).toHaveValue('');

    await login(page, uniqueName('nobody'), 'whatever-123');
    await expect(loginForm(page).getByRole('alert')).toContainText('Invalid username or password');
  });

  test('registration never makes an admin, whatever the form says', async ({ page }) => {
    const username = uniqueName('sneaky');
    const response = await page.request.post('/auth', {
      form: {
        intent: 'register',
        username,
        password: 'sneaky-pass',
        confirmPassword: 'sneaky-pass',
        isAdmin: 'true',
      },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(302);
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/$/);
  });

  test('logout is a POST: a GET changes nothing', async ({ page }) => {
    const username = uniqueName('getter');
    await register(page, username, 'getter-pass');
    await expect(toast(page)).toContainText('Registration successful');
    await page.goto('/logout');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('user-menu')).toBeVisible();
  });
});

test.describe('admin guard', () => {
  test('an anonymous visitor is sent to /auth with a redirectTo, and comes back after logging in', async ({
    page,
    accounts: _accounts,
  }) => {
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fadmin$/);
    const form = loginForm(page);
    await form.getByLabel('Username').fill(ADMIN.username);
    await form.getByLabel('Password').fill(ADMIN.password);
    await form.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('heading', { name: /Welcome back/ })).toBeVisible();
  });

  test('a plain user is sent home', async ({ userPage: page }) => {
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/admin/tracks');
    await expect(page).toHaveURL(/\/$/);
  });

  test('an unsafe redirectTo is ignored', async ({ page, accounts: _accounts }) => {
    const response = await page.request.post('/auth', {
      form: {
        intent: 'login',
        username: ADMIN.username,
        password: ADMIN.password,
        redirectTo: '//evil.example/x',
      },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(302);
    expect(response.headers()['location']).toBe('/');
  });
});
