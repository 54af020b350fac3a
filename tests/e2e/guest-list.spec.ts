import { type APIRequestContext, request as playwrightRequest } from '@playwright/test';

import { ADMIN, expect, logIn, test, USER } from './fixtures';
import { dateFromToday, unique } from './public-helpers';

/**
 * The members' guest list of a show (decision 018), with JavaScript on and off: a member asks
 * for a spot and gives it back; the admin sees the list and downloads it as CSV. Each test
 * makes its own show (through the admin API) and deletes it.
 */

async function adminApi(baseURL: string): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({
    baseURL,
    extraHTTPHeaders: { Origin: baseURL },
  });
  const login = await api.post('/api/login', { data: ADMIN });
  expect(login.status(), await login.text()).toBe(200);
  return api;
}

async function createShow(api: APIRequestContext, title: string, capacity: number) {
  const created = await api.post('/api/admin/shows', {
    data: {
      title,
      venue: 'The Saint',
      location: 'Asbury Park, NJ',
      // Far enough ahead to be an upcoming show in any time zone, after the seeded ones.
      date: dateFromToday(300 + Math.floor(Math.random() * 60)),
      time: '9:00 PM',
      guestListCapacity: capacity,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()) as { id: number };
}

test('a member requests a guest-list spot, sees it, and cancels it', async ({
  page,
  baseURL,
  accounts: _accounts,
}) => {
  const admin = await adminApi(baseURL!);
  const title = `Guest Night ${unique()}`;
  const show = await createShow(admin, title, 2);
  try {
    // A visitor is offered the way in.
    await page.goto('/shows');
    const row = page.locator(`#show-${show.id}`);
    await expect(row.getByTestId('guest-list')).toContainText(
      "Members' guest list: 2 of 2 spots left",
    );
    await expect(
      row.getByRole('link', { name: `Log in to join the guest list of ${title}` }),
    ).toHaveAttribute('href', '/auth?redirectTo=%2Fshows');

    await page.request.post('/auth', {
      form: { intent: 'register', ...USER, confirmPassword: USER.password },
      maxRedirects: 0,
    });
    await logIn(page, USER);
    await page.goto('/shows');
    await row.getByRole('button', { name: `Request a guest-list spot for ${title}` }).click();
    await expect(row.getByTestId('guest-list')).toContainText("You're on the guest list");
    await expect(page.getByTestId('toast').first()).toContainText("You're on the guest list");

    // The admin sees the member on the list, and in the CSV.
    const list = await admin.get(`/admin/shows/${show.id}/guest-list`);
    expect(await list.text()).toContain(`>${USER.username}<`);
    const csv = await admin.get(`/admin/shows/${show.id}/guest-list.csv`);
    expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8');
    expect(await csv.text()).toMatch(new RegExp(`^"Name",.*\\r\\n"${USER.username}","`));
    // Nobody else gets the list.
    const stranger = await page.request.get(`/admin/shows/${show.id}/guest-list.csv`, {
      maxRedirects: 0,
    });
    expect(stranger.status()).toBe(302);

    await row.getByRole('button', { name: `Cancel my spot for ${title}` }).click();
    await expect(row.getByTestId('guest-list')).toContainText('2 of 2 spots left');
    await expect(
      row.getByRole('button', { name: `Request a guest-list spot for ${title}` }),
    ).toBeVisible();
  } finally {
    expect((await admin.delete(`/api/admin/shows/${show.id}`)).status()).toBe(204);
    await admin.dispose();
  }
});

test('the admin sees the count on the show and the list in its dialog', async ({
  adminPage: page,
  baseURL,
}) => {
  const admin = await adminApi(baseURL!);
  const title = `Guest Count ${unique()}`;
  const show = await createShow(admin, title, 5);
  try {
    // The admin asks for a spot too (any logged-in account is a member).
    await page.goto('/shows');
    await page
      .locator(`#show-${show.id}`)
      .getByRole('button', { name: `Request a guest-list spot for ${title}` })
      .click();
    await expect(page.locator(`#show-${show.id}`)).toContainText("You're on the guest list");

    await page.goto('/admin/shows');
    const card = page.getByTestId('admin-show-card').filter({ hasText: title });
    await card.getByTestId('guest-list-count').click();
    await expect(card.getByTestId('guest-list-count')).toHaveText('1 / 5 on the guest list');
    await expect(page).toHaveURL(new RegExp(`/admin/shows/${show.id}/guest-list$`));
    await expect(page.getByTestId('guest-list')).toContainText(ADMIN.username);
    await expect(page.getByRole('link', { name: 'Download CSV' })).toHaveAttribute(
      'href',
      `/admin/shows/${show.id}/guest-list.csv`,
    );
  } finally {
    expect((await admin.delete(`/api/admin/shows/${show.id}`)).status()).toBe(204);
    await admin.dispose();
  }
});
