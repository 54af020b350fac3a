import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { type Browser, expect, type Page, test } from '@playwright/test';
import { MongoClient } from 'mongodb';

import {
  apiLogin,
  runScriptFor,
  type StandaloneStore,
  startServer,
  startStandaloneStore,
  type TestServer,
} from '../security/server';

/**
 * The site when its database fails or is slow, with the store's fail points (configureFailPoint
 * / failCommand, embedded-mongo/README.md). These tests change how the database answers, so
 * they run on a store and a production server of their own (never the shared e2e servers): an
 * in-memory embedded store (`npm run db -- --memory`, test commands on) and the app connected
 * to it with MONGODB_URI.
 */
test.describe.configure({ mode: 'serial' });

const DB = 'nightshore';
const MESSAGES = `${DB}.contact_messages`;
const FAILURE_TEXT = 'Something went wrong on our side. Please try again in a moment.';
const ADMIN = { username: 'dbfailadmin', password: 'db-failure-admin-password-1' };

let dir: string;
let store: StandaloneStore | undefined;
let app: TestServer;
let admin: MongoClient;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-dbfail-'));
  store = await startStandaloneStore(['--memory']);
  const uri = store.uri;
  admin = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
  await admin.connect();
  runScriptFor(dir, 'scripts/create-admin.ts', {
    MONGODB_URI: uri,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
  });
  app = await startServer(dir, { MONGODB_URI: uri, SITE_URL: 'http://localhost' });
});

test.afterEach(async () => {
  await admin.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' });
});

test.afterAll(async () => {
  await admin?.close();
  if (app) {
    app.proc.kill('SIGTERM');
    await app.exited;
  }
  await store?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The next insert into the messages collection fails as the database would report it. */
const failNextMessageInsert = (data: Record<string, unknown>) =>
  admin.db('admin').command({
    configureFailPoint: 'failCommand',
    mode: { times: 1 },
    data: { failCommands: ['insert'], namespace: MESSAGES, ...data },
  });

const storedMessages = (email: string) =>
  admin.db(DB).collection('contact_messages').countDocuments({ email });

async function fillContact(
  page: Page,
  javaScriptEnabled: boolean,
  visitor: { name: string; email: string; text: string },
) {
  await page.goto(`${app.url}/contact`);
  // With JavaScript, the page is driven once hydrated (before that it is the no-JS page).
  if (javaScriptEnabled)
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.getByLabel('Name', { exact: true }).fill(visitor.name);
  await page.getByLabel('Email', { exact: true }).fill(visitor.email);
  await page.getByLabel('Subject', { exact: true }).selectOption('Media Request');
  await page.getByLabel('Message', { exact: true }).fill(visitor.text);
}

async function failingContact(
  browser: Browser,
  javaScriptEnabled: boolean,
  failure: Record<string, unknown>,
) {
  const context = await browser.newContext({ javaScriptEnabled });
  const page = await context.newPage();
  try {
    const visitor = {
      name: `Visitor ${javaScriptEnabled ? 'with' : 'without'} JavaScript`,
      email: `db-failure-${javaScriptEnabled ? 'js' : 'nojs'}-${Date.now()}@example.com`,
      text: 'Could we book you for the boardwalk festival on the first weekend of August?',
    };
    await fillContact(page, javaScriptEnabled, visitor);
    await failNextMessageInsert(failure);
    const answer = page.waitForResponse(
      (r) => r.request().method() === 'POST' && new URL(r.url()).pathname.startsWith('/contact'),
    );
    await page.getByRole('button', { name: 'Send Message' }).click();
    // A server error status, not a success and not a redirect to the thank-you page.
    const response = await answer;
    expect(response.status()).toBe(500);
    // With JavaScript the form was sent by the page's script (Remix's .data request).
    expect(new URL(response.url()).pathname).toBe(javaScriptEnabled ? '/contact.data' : '/contact');
    await expect(page.getByText(FAILURE_TEXT).first()).toBeVisible();
    await expect(page.getByTestId('contact-thank-you')).toHaveCount(0);
    if (javaScriptEnabled) {
      await expect(page.getByTestId('toast')).toContainText('Message could not be sent');
    }
    // The visitor's text is all still there, ready to be sent again.
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue(visitor.name);
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue(visitor.email);
    await expect(page.getByLabel('Subject', { exact: true })).toHaveValue('Media Request');
    await expect(page.getByLabel('Message', { exact: true })).toHaveValue(visitor.text);
    // Nothing of the database's error reaches the page.
    const html = await page.content();
    expect(html).not.toMatch(/MongoServerError|MongoNetworkError|failpoint|at \S+ \(/i);
    expect(await storedMessages(visitor.email)).toBe(0);

    // The database is back: the same form, sent again as it stands, goes through.
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByTestId('contact-thank-you')).toBeVisible();
    expect(await storedMessages(visitor.email)).toBe(1);
  } finally {
    await context.close();
  }
}

test('contact form without JavaScript: a failing insert shows the error and keeps the text', async ({
  browser,
}) => {
  await failingContact(browser, false, { errorCode: 96 });
});

test('contact form with JavaScript: a dropped database connection shows the error and keeps the text', async ({
  browser,
}) => {
  await failingContact(browser, true, { closeConnection: true });
});

test('POST /api/contact: a failing insert is a JSON 500 that reveals nothing, and stores nothing', async () => {
  await failNextMessageInsert({ errorCode: 96 });
  const email = `api-failure-${Date.now()}@example.com`;
  const res = await fetch(`${app.url}/api/contact`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: app.url },
    body: JSON.stringify({
      name: 'Api Visitor',
      email,
      subject: 'General Question',
      message: 'Sent while the database refuses writes.',
    }),
  });
  expect(res.status).toBe(500);
  const body = await res.text();
  expect(JSON.parse(body)).toEqual({ error: expect.any(String) });
  expect(body).not.toMatch(/Mongo|failpoint|OperationFailed|stack/i);
  expect(await storedMessages(email)).toBe(0);
});

test('a slow database write does not stall unrelated requests', async () => {
  // The next message insert waits 5 s in the database (on its own connection only).
  const { count: entered } = await failNextMessageInsert({
    blockConnection: true,
    blockTimeMS: 5000,
  });
  const order: string[] = [];
  const email = `slow-${Date.now()}@example.com`;
  const slow = fetch(`${app.url}/api/contact`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: app.url },
    body: JSON.stringify({
      name: 'Patient Visitor',
      email,
      subject: 'General Question',
      message: 'This message is stored while the database is slow.',
    }),
  }).then((r) => {
    order.push('slow contact');
    return r;
  });
  // Wait until the insert has reached the database and is held there.
  await admin
    .db('admin')
    .command({ waitForFailPoint: 'failCommand', timesEntered: entered + 1, maxTimeMS: 30_000 });
  // Meanwhile pages, API reads and other writes are answered.
  const pages = ['/', '/contact', '/shows', '/about', '/api/tracks', '/api/shows', '/healthz'];
  for (const page of pages) {
    const res = await fetch(`${app.url}${page}`);
    expect(res.status, page).toBe(200);
    await res.arrayBuffer();
    order.push(page);
  }
  const subscribe = await fetch(`${app.url}/api/subscribe`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: app.url },
    body: JSON.stringify({ name: 'Other Visitor', email: `other-${Date.now()}@example.com` }),
  });
  expect(subscribe.status).toBeLessThan(300);
  order.push('subscribe');
  const answer = await slow;
  expect(answer.status).toBe(201);
  expect(order).toEqual([...pages, 'subscribe', 'slow contact']);
  expect(await storedMessages(email)).toBe(1);
});

/** SPEC §8's inline message of the shows page that cannot load its shows. */
const SHOWS_LOAD_FAILURE = 'Unable to load upcoming shows. Please try again later.';

test("GET /shows while the database drops its reads: 503, the spec's message and the request id (decision 033)", async () => {
  // A member: the shows page also reads the member's guest-list spots, a collection only this
  // page reads, so the failure reaches the page's own loader (the root loader, which every page
  // runs, reads shows for the footer and would take the whole page to its own boundary).
  const member = {
    username: `dbfail${Date.now().toString(36)}`,
    password: 'db-failure-password-1',
  };
  const registered = await fetch(`${app.url}/api/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: app.url },
    body: JSON.stringify(member),
  });
  expect(registered.status, await registered.text()).toBe(201);
  const cookie = await apiLogin(app.url, member.username, member.password);
  // Signed in (a page that does not read the spots: a /shows read now would be kept by the read
  // cache, decision 039, and answered from it while nothing changed).
  expect((await fetch(`${app.url}/account`, { headers: { Cookie: cookie } })).status).toBe(200);

  // Every read of the spots drops the connection (the driver's one retry too).
  await admin.db('admin').command({
    configureFailPoint: 'failCommand',
    mode: 'alwaysOn',
    data: { failCommands: ['find'], namespace: `${DB}.guest_list_spots`, closeConnection: true },
  });
  const page = await fetch(`${app.url}/shows`, { headers: { Cookie: cookie } });
  expect(page.status).toBe(503);
  const id = page.headers.get('X-Request-Id');
  expect(id).toMatch(/^[\w-]{8,}$/);
  const html = await page.text();
  expect(html).toContain(SHOWS_LOAD_FAILURE);
  expect(html).toContain(`Error reference: <code>${id}</code>`);
  expect(html).not.toMatch(/MongoNetworkError|MongoServerError|failpoint|node_modules|at \S+ \(/i);
  // The site's header and footer are still there: only the page's part failed.
  expect(html).toContain('Quick Links');

  // The database answers again: so does the page.
  await admin.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' });
  const again = await fetch(`${app.url}/shows`, { headers: { Cookie: cookie } });
  expect(again.status).toBe(200);
  expect(await again.text()).not.toContain(SHOWS_LOAD_FAILURE);
});

/**
 * An admin form's own failure (FormFailure): the title and the server's message in the form's
 * alert, in the server HTML without JavaScript, and with JavaScript in a toast as well.
 */
async function failingShowForm(browser: Browser, javaScriptEnabled: boolean) {
  const cookie = await apiLogin(app.url, ADMIN.username, ADMIN.password);
  const context = await browser.newContext({ javaScriptEnabled });
  await context.addCookies(
    cookie.split('; ').map((pair) => {
      const [name, ...value] = pair.split('=');
      return { name: name!, value: value.join('='), url: app.url };
    }),
  );
  const page = await context.newPage();
  try {
    const title = `Failing show ${javaScriptEnabled ? 'js' : 'nojs'} ${Date.now()}`;
    await page.goto(`${app.url}/admin/shows/new`);
    if (javaScriptEnabled)
      await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    await page.getByLabel('Title', { exact: true }).fill(title);
    await page.getByLabel('Venue', { exact: true }).fill('The Boardwalk');
    await page.getByLabel('Location', { exact: true }).fill('Night Shore, CA');
    await page.getByLabel('Date', { exact: true }).fill('2030-08-02');
    await page.getByLabel('Time', { exact: true }).fill('8:00 PM');
    await admin.db('admin').command({
      configureFailPoint: 'failCommand',
      mode: { times: 1 },
      data: { failCommands: ['insert'], namespace: `${DB}.shows`, errorCode: 96 },
    });
    await page.getByRole('button', { name: 'Create Show' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Failed to create show' });
    await expect(alert).toContainText(FAILURE_TEXT);
    if (javaScriptEnabled) {
      await expect(page.getByTestId('toast')).toContainText('Failed to create show');
      await expect(page.getByTestId('toast')).toContainText(FAILURE_TEXT);
    }
    expect(await admin.db(DB).collection('shows').countDocuments({ title })).toBe(0);
  } finally {
    await context.close();
  }
}

test('admin show form without JavaScript: a failing insert is the form alert, nothing stored', async ({
  browser,
}) => {
  await failingShowForm(browser, false);
});

test('admin show form with JavaScript: a failing insert is the form alert and a toast', async ({
  browser,
}) => {
  await failingShowForm(browser, true);
});
