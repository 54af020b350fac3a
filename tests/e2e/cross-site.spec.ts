import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { expect, test, USER } from './fixtures';

/**
 * A page on another site posts forms to ours (docs/decisions/028-trust-boundary.md): the
 * classic login CSRF, an account change and an admin action. The browser sends its own
 * Origin and Sec-Fetch-Site, the trust boundary refuses with 403 before any action runs, and
 * nothing changes. The attacker's page is served on 127.0.0.1 (another site than localhost),
 * and its forms are submitted by a click, so the same test runs with JavaScript on and off.
 */

let attacker: http.Server;
let attackerUrl = '';
let forms = '';

test.beforeAll(async () => {
  attacker = http.createServer((_req, res) => {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(`<!doctype html><title>Win a prize</title>${forms}`);
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`;
});
test.afterAll(() => new Promise<void>((resolve) => attacker.close(() => resolve())));

const hidden = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
    .join('');

/** The attacker's page: one form per target, each with its own button. */
function attackerPage(
  site: string,
  targets: Record<string, { path: string; fields: Record<string, string> }>,
) {
  forms = Object.entries(targets)
    .map(
      ([button, { path, fields }]) =>
        `<form method="post" action="${site}${path}">${hidden(fields)}<button>${button}</button></form>`,
    )
    .join('');
}

test('a form on another site cannot log a visitor into an account', async ({
  context,
  baseURL,
}) => {
  attackerPage(baseURL ?? '', {
    'Claim your prize': { path: '/auth', fields: { intent: 'login', ...USER } },
  });
  // A page of its own: the fixture's page waits for our site's hydration on navigations.
  const page = await context.newPage();
  await page.goto(attackerUrl);
  await page.getByRole('button', { name: 'Claim your prize' }).click();
  await expect(page.locator('body')).toHaveText('Cross-origin request refused');
  expect(new URL(page.url()).pathname).toBe('/auth');
  // No session: the account page sends the visitor to log in.
  await page.goto(`${baseURL}/account`);
  expect(new URL(page.url()).pathname).toBe('/auth');
});

test('a form on another site cannot change a member’s email or an admin’s content', async ({
  adminPage,
  baseURL,
}) => {
  // The logged-in admin's browser, on a page of its own (see above).
  const page = await adminPage.context().newPage();
  const title = `Cross-site show ${Date.now()}`;
  const email = `cross-site-${Date.now()}@example.com`;
  attackerPage(baseURL ?? '', {
    'Change email': { path: '/account', fields: { intent: 'email', email, newsletter: 'on' } },
    'Add a show': {
      path: '/admin/shows/new',
      fields: {
        title,
        venue: 'The Stone Pony',
        location: 'Asbury Park, NJ',
        date: '2031-06-01',
        time: '8:00 PM',
        ticketUrl: 'https://tickets.example.com/x',
        description: 'A night on the shore.',
      },
    },
  });
  for (const button of ['Change email', 'Add a show']) {
    await page.goto(attackerUrl);
    await page.getByRole('button', { name: button }).click();
    await expect(page.locator('body'), button).toHaveText('Cross-origin request refused');
  }
  await page.goto(`${baseURL}/account`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('main')).not.toContainText(email);
  await page.goto(`${baseURL}/admin/shows`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('main')).not.toContainText(title);
});
