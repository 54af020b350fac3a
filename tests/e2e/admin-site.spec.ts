import fs from 'node:fs';
import path from 'node:path';

import type { Browser, Page } from '@playwright/test';

import { dismissToast, withRunLock } from './admin-helpers';
import { ADMIN, e2eDataDir, expect, logIn, runScript, test } from './fixtures';

/**
 * The admin screens for the newsletter, messages, shows and settings, as
 * an administrator with JavaScript on and off, and the authorisation of every one of their
 * URLs and actions for visitors and plain users.
 */

const uid = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

type Created = { id: number } & Record<string, unknown>;
type RecordInput =
  | { kind: 'subscriber'; name: string; email: string }
  | { kind: 'message'; name: string; email: string; subject: string; message: string }
  | {
      kind: 'show';
      title: string;
      venue: string;
      location: string;
      date: string;
      time: string;
      ticketUrl?: string;
      description?: string;
    };

/** Create records straight in the e2e store (no public form, no rate limit). */
function createRecords(records: RecordInput[]): Created[] {
  const out = runScript('tests/e2e/scripts/create-records.ts', {
    RECORDS: JSON.stringify(records),
  });
  const last = out.trim().split('\n').pop() ?? '[]';
  return JSON.parse(last) as Created[];
}

/** A future date (YYYY-MM-DD) so the show is listed as upcoming. */
const futureDate = (daysAhead: number) => {
  const d = new Date(Date.now() + daysAhead * 86_400_000);
  return d.toISOString().slice(0, 10);
};

/**
 * Open an admin page with no toast in the way: the flash toast (e.g. 'Login successful')
 * sits over the top-right corner until dismissed, and without JavaScript it never times out.
 */
/** The raw .eml the e2e server wrote to its outbox for `to` and `subject` (no SMTP_URL there). */
function findOutboxMessage(to: string, subject: string): string {
  const outbox = path.join(e2eDataDir(), 'outbox');
  for (const name of fs.readdirSync(outbox)) {
    if (!name.endsWith('.eml')) continue;
    // Header lines may be folded (a line break and a space): unfold them.
    const raw = fs.readFileSync(path.join(outbox, name), 'utf8').replace(/\r?\n[ \t]+/g, ' ');
    if (raw.includes(`Subject: ${subject}`) && new RegExp(`^To: .*<?${to}>?`, 'm').test(raw)) {
      return raw;
    }
  }
  throw new Error(`no message to ${to} with subject "${subject}" in ${outbox}`);
}

async function open(page: Page, url: string) {
  await page.goto(url);
  await dismissToast(page);
}

async function newAdminPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await logIn(page, ADMIN);
  return page;
}

test.describe('admin newsletter', () => {
  test('search, count line, and removing a subscriber after its confirmation', async ({
    adminPage: page,
  }) => {
    const id = uid();
    const email = `zed-${id}@example.com`;
    createRecords([{ kind: 'subscriber', name: `Zed ${id}`, email }]);

    await open(page, '/admin/newsletter');
    await expect(page.getByRole('heading', { level: 1, name: 'Newsletter' })).toBeVisible();
    await expect(page.getByRole('columnheader', { name: 'Subscriber' })).toBeVisible();
    await expect(page.getByRole('columnheader', { name: 'Date Added' })).toBeVisible();
    await expect(page.getByRole('columnheader', { name: 'Actions' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Compose Newsletter' }).first()).toBeVisible();

    // Search is case-insensitive, on name or email.
    await page.getByLabel('Search subscribers').fill(`ZED ${id.toUpperCase()}`);
    await page.getByLabel('Search subscribers').press('Enter');
    await expect(page).toHaveURL(/\?q=/);
    await expect(page.getByTestId('subscriber-count')).toHaveText(
      /^1 subscriber \(filtered from \d+\)$/,
    );
    await expect(page.getByRole('rowheader', { name: new RegExp(email) })).toBeVisible();

    await page.getByRole('link', { name: `Remove ${email}` }).click();
    await expect(page).toHaveURL(/\/admin\/newsletter\/\d+\/delete\?q=/);
    const dialog = page.getByRole('dialog', { name: 'Remove subscriber?' });
    await expect(dialog).toContainText(email);
    await dialog.getByRole('button', { name: 'Remove' }).click();

    await expect(page).toHaveURL(/\/admin\/newsletter\?q=/);
    await expect(page.getByTestId('subscriber-count')).toHaveText(
      /^0 subscribers \(filtered from \d+\)$/,
    );
    await expect(page.getByRole('rowheader', { name: new RegExp(email) })).toHaveCount(0);
  });

  test('the emails can be copied: a button that fetches them with JavaScript, a CSV download either way', async ({
    adminPage: page,
    javaScriptEnabled,
  }) => {
    const id = uid();
    const emails = [`copy-a-${id}@example.com`, `copy-b-${id}@example.com`];
    createRecords(
      emails.map((email) => ({ kind: 'subscriber' as const, name: `Copy ${id}`, email })),
    );
    await open(page, `/admin/newsletter?q=${id}`);
    await expect(page.getByTestId('subscriber-count')).toHaveText(
      /^2 subscribers \(filtered from \d+\)$/,
    );
    const csvHref = await page.getByTestId('subscribers-csv').getAttribute('href');
    expect(csvHref).toBe(`/admin/newsletter/subscribers.csv?q=${id}`);
    const csv = await (await page.request.get(csvHref!)).text();
    for (const email of emails) expect(csv).toContain(`"${email}"`);

    if (javaScriptEnabled) {
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.getByRole('button', { name: 'Copy All Emails' }).click();
      await expect(page.getByTestId('toast')).toContainText(
        '2 email addresses copied to clipboard.',
      );
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied.split(', ').sort()).toEqual([...emails].sort());
    } else {
      await expect(page.getByRole('button', { name: 'Copy All Emails' })).toHaveCount(0);
    }
  });

  test('pages of subscribers: links across pages, a search over every page, the CSV with every match once', async ({
    adminPage: page,
  }) => {
    const id = uid();
    const domain = `pages-${id}.example`;
    createRecords(
      Array.from({ length: 120 }, (_, i) => ({
        kind: 'subscriber' as const,
        name: `Pager ${i}`,
        email: `p${i}@${domain}`,
      })),
    );
    await open(page, '/admin/newsletter');
    await page.getByLabel('Search subscribers').fill(domain.toUpperCase());
    await page.getByLabel('Search subscribers').press('Enter');
    await expect(page.getByTestId('subscriber-count')).toHaveText(
      /^120 subscribers \(filtered from \d+\)$/,
    );
    const rows = page.getByRole('rowheader', { name: new RegExp(domain) });
    await expect(rows).toHaveCount(50);
    const nav = page.getByRole('navigation', { name: 'Pagination' });
    await expect(nav.getByRole('link', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    await nav.getByRole('link', { name: 'Next page' }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page).toHaveURL(/q=/);
    await expect(nav.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    await expect(rows).toHaveCount(50);
    await nav.getByRole('link', { name: 'Page 3' }).click();
    await expect(page).toHaveURL(/page=3/);
    await expect(rows).toHaveCount(20);
    await expect(page.getByTestId('subscriber-count')).toHaveText(
      /^120 subscribers \(filtered from \d+\)$/,
    );
    // The newest are on page 1: the first created is on the last page.
    await expect(page.getByRole('rowheader', { name: new RegExp(`p0@${domain}`) })).toBeVisible();

    const csv = await (
      await page.request.get(`/admin/newsletter/subscribers.csv?q=${encodeURIComponent(domain)}`)
    ).text();
    const found = csv
      .trim()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(',')[1]?.replace(/"/g, ''));
    expect(found).toHaveLength(120);
    expect(new Set(found).size).toBe(120);
    for (let i = 0; i < 120; i++) expect(found).toContain(`p${i}@${domain}`);
  });

  test('compose: validation errors, then a newsletter sent to the subscribers; its unsubscribe link works, a tampered one is refused', async ({
    adminPage: page,
    browser,
    javaScriptEnabled,
  }) => {
    test.slow(); // a send, a wait for its progress, then a visitor's unsubscribe
    const id = uid();
    const email = `reader-${id}@example.com`;
    createRecords([{ kind: 'subscriber', name: `Reader ${id}`, email }]);
    await open(page, '/admin/newsletter');
    await page.getByRole('link', { name: 'Compose Newsletter' }).first().click();
    await expect(page).toHaveURL(/tab=compose/);
    await expect(page.getByRole('link', { name: 'Compose Newsletter' }).first()).toHaveAttribute(
      'aria-current',
      'page',
    );
    // No SMTP server in the e2e environment: the screen says where mail goes.
    await expect(page.getByTestId('mail-delivery')).toHaveText(
      'Delivery: outbox folder (no SMTP server configured)',
    );

    await page.getByLabel('Subject').fill('ab');
    await page.getByLabel('Content').fill('too short');
    await page.getByRole('button', { name: 'Send Newsletter' }).click();
    await expect(page.getByText('Subject must be at least 3 characters.')).toBeVisible();
    await expect(
      page.getByText('Newsletter content must be at least 10 characters.'),
    ).toBeVisible();

    const subject = `Summer dates ${id}`;
    await page.getByLabel('Subject').fill(subject);
    await page
      .getByLabel('Content')
      .fill('Three new shows on the boardwalk this summer.\n\nSee you there.');
    await page.getByRole('button', { name: 'Send Newsletter' }).click();

    await expect(page).toHaveURL(/\/admin\/newsletter\?tab=compose$/);
    await expect(page.getByTestId('toast')).toContainText(/Queued for \d+ subscribers?/);
    // The form is empty again after success.
    await expect(page.getByLabel('Subject')).toHaveValue('');
    const row = page.getByTestId('sent-newsletter').filter({ hasText: subject });
    await expect(row).toBeVisible();
    // With JavaScript the tab follows the send by itself; without, a reload shows it.
    if (javaScriptEnabled) {
      await expect(row.getByTestId('newsletter-state')).toHaveText('Sent', { timeout: 30_000 });
    } else {
      await expect
        .poll(
          async () => {
            await page.reload();
            return (await row.getByTestId('newsletter-state').textContent())?.trim();
          },
          { timeout: 30_000, intervals: [500, 1000] },
        )
        .toBe('Sent');
    }
    await expect(row).toContainText(/(\d+) of \1 sent/);

    // The reader's copy is in the outbox; its List-Unsubscribe link is theirs.
    const raw = findOutboxMessage(email, subject);
    const link = /^List-Unsubscribe:\s*<([^>]+)>/im.exec(raw)?.[1];
    expect(link, 'the List-Unsubscribe header').toBeTruthy();
    expect(raw).toMatch(/^List-Unsubscribe-Post:\s*List-Unsubscribe=One-Click/im);
    const unsubscribePath = new URL(link!).pathname;

    const visitorContext = await browser.newContext({ javaScriptEnabled });
    const visitor = await visitorContext.newPage();
    const tampered = unsubscribePath.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    const refused = await visitor.goto(tampered);
    expect(refused?.status()).toBe(400);
    await expect(visitor.getByRole('alert')).toContainText('This unsubscribe link is not valid');

    await visitor.goto(unsubscribePath);
    await expect(visitor.getByText(`${email[0]}•••@example.com`)).toBeVisible();
    await visitor.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(
      visitor.getByRole('heading', { name: 'You have been unsubscribed' }),
    ).toBeVisible();

    // The issue is in the public archive, linked from the footer.
    await visitor.goto('/');
    await visitor
      .getByRole('contentinfo')
      .getByRole('link', { name: 'Newsletter archive' })
      .click();
    await expect(visitor).toHaveURL(/\/newsletter$/);
    await visitor.getByRole('link', { name: subject }).click();
    await expect(visitor.getByRole('heading', { level: 1, name: subject })).toBeVisible();
    await expect(visitor.getByText('Three new shows on the boardwalk this summer.')).toBeVisible();
    await visitorContext.close();

    // The admin list shows the address as unsubscribed.
    await open(page, `/admin/newsletter?q=${encodeURIComponent(email)}&status=unsubscribed`);
    await expect(page.getByRole('rowheader', { name: new RegExp(email) })).toBeVisible();
    await expect(page.getByRole('row', { name: new RegExp(email) })).toContainText('Unsubscribed');
  });
});

test.describe('admin messages', () => {
  test('view a message, then delete it after its confirmation', async ({ adminPage: page }) => {
    const id = uid();
    const name = `Mira ${id}`;
    const email = `mira-${id}@example.com`;
    createRecords([
      {
        kind: 'message',
        name,
        email,
        subject: 'Media Request',
        message: `First line ${id}\nSecond line`,
      },
    ]);

    await open(page, '/admin/messages');
    await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to dashboard' })).toHaveAttribute(
      'href',
      '/admin',
    );
    for (const column of ['Name', 'Email', 'Subject', 'Date', 'Actions']) {
      await expect(page.getByRole('columnheader', { name: column, exact: true })).toBeVisible();
    }
    const row = page.getByRole('row', { name: new RegExp(name) });
    await expect(row).toContainText(email);
    await expect(row).toContainText('Media Request');
    await expect(row).toContainText(/\d{1,2}\/\d{1,2}\/\d{2}, \d{1,2}:\d{2}\s?[AP]M/);

    await row.getByRole('link', { name: `View message from ${name}` }).click();
    const view = page.getByRole('dialog', { name: 'Media Request' });
    await expect(view).toContainText(email);
    await expect(view).toContainText(`First line ${id}`);
    // Line breaks are kept.
    expect(await view.getByText(`First line ${id}`).innerText()).toContain(
      `First line ${id}\nSecond line`,
    );
    await view.getByRole('link', { name: 'Close' }).first().click();
    await expect(page).toHaveURL(/\/admin\/messages$/);
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await page
      .getByRole('row', { name: new RegExp(name) })
      .getByRole('link', { name: `View message from ${name}` })
      .click();
    await page.getByRole('dialog').getByRole('link', { name: 'Delete', exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/messages\/\d+\/delete$/);
    const confirm = page.getByRole('dialog', { name: 'Delete message?' });
    await expect(confirm).toContainText(name);
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();

    await expect(page).toHaveURL(/\/admin\/messages$/);
    await expect(page.getByRole('row', { name: new RegExp(name) })).toHaveCount(0);
  });
});

test.describe('admin shows', () => {
  test('create, edit and delete a show, and see each change on /shows', async ({
    adminPage: page,
  }) => {
    const id = uid();
    const title = `Tide Pool ${id}`;
    const renamed = `Low Water ${id}`;

    await open(page, '/admin/shows');
    await expect(page.getByRole('heading', { level: 1, name: 'Shows' })).toBeVisible();
    await page.getByRole('link', { name: 'Add New Show' }).click();
    await expect(page).toHaveURL(/\/admin\/shows\/new$/);
    const create = page.getByRole('dialog', { name: 'Add New Show' });
    await create.getByLabel('Title').fill(title);
    await create.getByLabel('Venue').fill('The Stone Pony');
    await create.getByLabel('Location').fill('Asbury Park, NJ');
    await create.getByLabel('Date').fill('2031-07-19');
    await create.getByLabel('Time').fill('9:00 PM');
    await create.getByLabel('Ticket URL (optional)').fill('https://tickets.example.com/tide-pool');
    await create.getByLabel('Description (optional)').fill('A late set by the water.');
    await create.getByRole('button', { name: 'Create Show' }).click();

    // The list is paged by date: a save lands on the page the show is on.
    await expect(page).toHaveURL(/\/admin\/shows(\?page=\d+)?$/);
    const showsPage = new URL(page.url()).pathname + new URL(page.url()).search;
    const card = page.getByTestId('admin-show-card').filter({ hasText: title });
    await expect(card).toContainText('July 19, 2031 at 9:00 PM');
    await expect(card).toContainText('The Stone Pony, Asbury Park, NJ');
    await expect(card).toContainText('A late set by the water.');
    await expect(card.getByRole('link', { name: /Get Tickets/ })).toHaveAttribute(
      'href',
      'https://tickets.example.com/tide-pool',
    );

    await page.goto('/shows');
    await expect(page.getByText(title).first()).toBeVisible();

    await open(page, showsPage);
    await page.getByRole('link', { name: `Edit ${title}` }).click();
    await expect(page).toHaveURL(/\/admin\/shows\/\d+\/edit$/);
    const edit = page.getByRole('dialog', { name: 'Edit Show' });
    await expect(edit.getByLabel('Title')).toHaveValue(title);
    await expect(edit.getByLabel('Date')).toHaveValue('2031-07-19');
    await edit.getByLabel('Title').fill(renamed);
    await edit.getByLabel('Time').fill('10:30 PM');
    await edit.getByLabel('Ticket URL (optional)').fill('');
    await edit.getByRole('button', { name: 'Update Show' }).click();

    await expect(page).toHaveURL(/\/admin\/shows(\?page=\d+)?$/);
    const edited = page.getByTestId('admin-show-card').filter({ hasText: renamed });
    await expect(edited).toContainText('July 19, 2031 at 10:30 PM');
    await expect(edited.getByRole('link', { name: /Get Tickets/ })).toHaveCount(0);
    await expect(page.getByTestId('admin-show-card').filter({ hasText: title })).toHaveCount(0);

    await page.goto('/shows');
    await expect(page.getByText(renamed).first()).toBeVisible();
    await expect(page.getByText(title)).toHaveCount(0);

    await open(page, showsPage);
    await page.getByRole('link', { name: `Delete ${renamed}` }).click();
    await expect(page).toHaveURL(/\/admin\/shows\/\d+\/delete$/);
    const confirm = page.getByRole('dialog', { name: 'Confirm Deletion' });
    await expect(confirm).toContainText(renamed);
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();

    await expect(page).toHaveURL(/\/admin\/shows(\?page=\d+)?$/);
    await expect(page.getByTestId('admin-show-card').filter({ hasText: renamed })).toHaveCount(0);
    await page.goto('/shows');
    await expect(page.getByText(renamed)).toHaveCount(0);
  });

  test('the show form shows every validation message', async ({ adminPage: page }) => {
    await open(page, '/admin/shows/new');
    const dialog = page.getByRole('dialog', { name: 'Add New Show' });
    await dialog.getByRole('button', { name: 'Create Show' }).click();
    for (const message of [
      'Title is required',
      'Venue is required',
      'Location is required',
      'Date is required',
      'Time is required',
    ]) {
      await expect(dialog.getByText(message, { exact: true })).toBeVisible();
    }
    await expect(dialog.getByLabel('Title')).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.getByText('Must be a valid URL')).toHaveCount(0);

    await dialog.getByLabel('Title').fill('Half filled');
    await dialog.getByLabel('Venue').fill('Venue');
    await dialog.getByLabel('Location').fill('Belmar, NJ');
    await dialog.getByLabel('Date').fill('2031-03-04');
    await dialog.getByLabel('Time').fill('8:00 PM');
    await dialog.getByLabel('Ticket URL (optional)').fill('not a url');
    await dialog.getByRole('button', { name: 'Create Show' }).click();
    await expect(dialog.getByText('Must be a valid URL', { exact: true })).toBeVisible();
    for (const message of ['Title is required', 'Venue is required', 'Date is required']) {
      await expect(dialog.getByText(message)).toHaveCount(0);
    }
    // What was typed is kept.
    await expect(dialog.getByLabel('Venue')).toHaveValue('Venue');
    // Nothing was created.
    await open(page, '/admin/shows');
    await expect(
      page.getByTestId('admin-show-card').filter({ hasText: 'Half filled' }),
    ).toHaveCount(0);
  });
});

/** The theme `<style>`, the inline @font-face rules and the font stylesheets of the home page. */
async function publicTheme(page: Page) {
  await page.goto('/');
  // What the page applies: the theme's variables as computed on the root element.
  const vars = await page.evaluate(() => {
    const style = getComputedStyle(document.documentElement);
    return {
      fontHeading: style.getPropertyValue('--font-heading').trim(),
      primary: style.getPropertyValue('--primary').trim(),
    };
  });
  const css = vars.fontHeading ? `--font-heading:${vars.fontHeading};` : '';
  const primary = vars.primary;
  const html = await page.content();
  const fontLinks = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map(
    (m) => m[1],
  );
  const inlineCss = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)]
    .map((m) => m[1])
    .join('\n');
  return { css, primary, fontLinks, inlineCss };
}

/**
 * The font families the page declares: @font-face rules in its linked stylesheets (the theme's
 * /theme.css, the @fontsource files) and any inline in the head.
 */
async function fontFamilies(
  page: Page,
  site: { fontLinks: string[]; inlineCss: string },
): Promise<string[]> {
  const families = new Set<string>();
  const sheets = [site.inlineCss];
  for (const href of site.fontLinks) sheets.push(await (await page.request.get(href)).text());
  for (const css of sheets) {
    for (const m of css.matchAll(/@font-face\s*\{\s*font-family:\s*'?"?([^;'"]+)/g))
      families.add(m[1].trim());
  }
  return [...families];
}

test.describe('admin settings', () => {
  test('the header font and the primary colour change the public site', async ({
    adminPage: page,
  }) => {
    // Tests in both projects change the one theme: take turns.
    await withRunLock('theme-settings', async () => {
      await open(page, '/admin/settings');
      await expect(page.getByRole('heading', { level: 1, name: 'Site Appearance' })).toBeVisible();
      for (const card of ['Colors & Theme', 'Typography', 'Site Text']) {
        await expect(page.getByRole('heading', { level: 2, name: card })).toBeVisible();
      }
      const slider = page.getByLabel('Corner radius');
      await expect(slider).toHaveAttribute('type', 'range');
      await expect(slider).toHaveAttribute('min', '0');
      await expect(slider).toHaveAttribute('max', '2');
      await expect(slider).toHaveAttribute('step', '0.1');
      for (const label of ['Square', 'Rounded', 'Pill'])
        await expect(page.getByText(label, { exact: true })).toBeVisible();
      const heroTitle = await page.getByLabel('Hero title').inputValue();
      const heroText = await page.getByLabel('Hero text').inputValue();
      const footerText = await page.getByLabel('Footer text').inputValue();

      try {
        // 1. The text field: a font and an hsl() colour.
        await page.getByLabel('Header font').selectOption('Audiowide');
        await page.getByLabel('Primary colour').fill('hsl(200, 90%, 50%)');
        await page.getByRole('button', { name: 'Save Changes' }).click();
        // The save has answered (with JavaScript the URL and the fields are already these
        // before it does: leaving the page earlier would cancel it).
        await expect(page.getByTestId('toast').filter({ hasText: 'Settings saved' })).toBeVisible();
        await expect(page).toHaveURL(/\/admin\/settings$/);
        await expect(page.getByLabel('Header font')).toHaveValue('Audiowide');
        await expect(page.getByLabel('Primary colour')).toHaveValue('hsl(200, 90%, 50%)');

        let site = await publicTheme(page);
        expect(site.css).toContain("--font-heading:'Audiowide'");
        expect(site.primary).toMatch(/^200 /);
        const families = await fontFamilies(page, site);
        expect(families).toContain('Audiowide');
        expect(families).not.toContain('Orbitron');

        // 2. The colour picker alone (without JavaScript the server sees that only it changed).
        await open(page, '/admin/settings');
        await page.getByLabel('Colour picker').fill('#00cc44');
        await page.getByRole('button', { name: 'Save Changes' }).click();
        await expect(page.getByTestId('toast').filter({ hasText: 'Settings saved' })).toBeVisible();
        await expect(page).toHaveURL(/\/admin\/settings$/);
        await expect(page.getByLabel('Primary colour')).toHaveValue('#00cc44');
        site = await publicTheme(page);
        expect(site.primary).toMatch(/^(13[0-9]|14[0-9]) /);

        // 3. A bad colour is refused with its message and nothing is saved.
        await open(page, '/admin/settings');
        await page.getByLabel('Primary colour').fill('blue-ish');
        await page.getByRole('button', { name: 'Save Changes' }).click();
        await expect(page.getByText('Colour must be an hsl() value or a hex colour')).toBeVisible();
        site = await publicTheme(page);
        expect(site.primary).toMatch(/^(13[0-9]|14[0-9]) /);
      } finally {
        // Restore the default settings so other tests see the usual site.
        const restore = await page.request.post('/admin/settings', {
          form: {
            primary: 'hsl(347, 100%, 56%)',
            primaryPicker: '#ff1f4f',
            variant: 'vibrant',
            appearance: 'dark',
            radius: '0.5',
            headerFont: 'Orbitron',
            bodyFont: 'Inter',
            heroTitle,
            heroText,
            footerText,
          },
          maxRedirects: 0,
        });
        expect(restore.status()).toBe(302);
      }
      const site = await publicTheme(page);
      expect(site.css).toContain("--font-heading:'Orbitron'");
      expect(await fontFamilies(page, site)).toContain('Orbitron');
    });
  });
});

/** Every URL and action of these screens, for the authorisation tests. */
function targets(ids: { subscriber: number; message: number; show: number }) {
  const pages = [
    '/admin/newsletter',
    '/admin/newsletter?tab=compose',
    `/admin/newsletter/${ids.subscriber}/delete`,
    '/admin/messages',
    `/admin/messages/${ids.message}`,
    `/admin/messages/${ids.message}/delete`,
    '/admin/shows',
    '/admin/shows/new',
    `/admin/shows/${ids.show}/edit`,
    `/admin/shows/${ids.show}/delete`,
    '/admin/settings',
  ];
  const showForm = {
    title: 'HIJACKED',
    venue: 'x',
    location: 'x',
    date: '2031-01-01',
    time: '1:00 PM',
  };
  const posts: Array<{ url: string; form: Record<string, string> }> = [
    {
      url: '/admin/newsletter?tab=compose',
      form: { subject: 'HIJACKED issue', content: 'HIJACKED content here' },
    },
    { url: `/admin/newsletter/${ids.subscriber}/delete`, form: {} },
    { url: `/admin/messages/${ids.message}/delete`, form: {} },
    { url: '/admin/shows/new', form: showForm },
    { url: `/admin/shows/${ids.show}/edit`, form: showForm },
    { url: `/admin/shows/${ids.show}/delete`, form: {} },
    {
      url: '/admin/settings',
      form: {
        primary: '#000000',
        variant: 'tint',
        appearance: 'light',
        radius: '2',
        headerFont: 'Permanent Marker',
        bodyFont: 'Permanent Marker',
        heroTitle: 'HIJACKED',
        heroText: 'HIJACKED',
        footerText: 'HIJACKED',
      },
    },
  ];
  return { pages, posts };
}

/** The single-fetch data URL of a page URL (what client navigations and submissions use). */
const dataUrl = (url: string) => {
  const [pathname, search] = url.split('?');
  return `${pathname}.data${search ? `?${search}` : ''}`;
};

async function expectRefused(page: Page, who: 'visitor' | 'user', secrets: string[]) {
  const id = uid();
  const [subscriber, message, show] = createRecords([
    { kind: 'subscriber', name: `Guarded ${id}`, email: `guarded-${id}@example.com` },
    {
      kind: 'message',
      name: `Guarded ${id}`,
      email: `guarded-${id}@example.com`,
      subject: 'General Question',
      message: `Secret body ${id}`,
    },
    {
      kind: 'show',
      title: `Guarded show ${id}`,
      venue: 'Venue',
      location: 'Belmar, NJ',
      date: futureDate(400),
      time: '8:00 PM',
    },
  ]);
  const { pages, posts } = targets({
    subscriber: subscriber.id,
    message: message.id,
    show: show.id,
  });
  const expectedLocation = who === 'visitor' ? /^\/auth\?redirectTo=/ : /^\/$/;
  const leaks = [`guarded-${id}@example.com`, `Secret body ${id}`, ...secrets];

  for (const url of pages) {
    const response = await page.request.get(url, { maxRedirects: 0 });
    expect(response.status(), `GET ${url}`).toBe(302);
    expect(response.headers().location, `GET ${url}`).toMatch(expectedLocation);
    const data = await page.request.get(dataUrl(url), { maxRedirects: 0 });
    const body = await data.text();
    for (const leak of leaks) expect(body, `GET ${dataUrl(url)}`).not.toContain(leak);
    expect(data.status(), `GET ${dataUrl(url)}`).not.toBe(200);
  }
  for (const { url, form } of posts) {
    const response = await page.request.post(url, { form, maxRedirects: 0 });
    expect(response.status(), `POST ${url}`).toBe(302);
    expect(response.headers().location, `POST ${url}`).toMatch(expectedLocation);
    // The single-fetch form of the same submission is refused too (a redirect, never 200).
    const data = await page.request.post(dataUrl(url), { form, maxRedirects: 0 });
    expect(data.status(), `POST ${dataUrl(url)}`).not.toBe(200);
  }
  return { subscriber, message, show, id };
}

async function expectUnchanged(
  browser: Browser,
  records: { subscriber: Created; message: Created; show: Created; id: string },
) {
  const admin = await newAdminPage(browser);
  try {
    await admin.goto(`/admin/newsletter?q=guarded-${records.id}`);
    await expect(admin.getByTestId('subscriber-count')).toHaveText(/^1 subscriber /);
    const message = await admin.goto(`/admin/messages/${records.message.id}`);
    expect(message?.status()).toBe(200);
    await admin.goto(`/admin/shows/${records.show.id}/edit`);
    await expect(admin.getByRole('dialog').getByLabel('Title')).toHaveValue(
      `Guarded show ${records.id}`,
    );
    await admin.goto('/admin/shows');
    await expect(admin.getByTestId('admin-show-card').filter({ hasText: 'HIJACKED' })).toHaveCount(
      0,
    );
    await admin.goto('/admin/newsletter?tab=compose');
    await expect(admin.getByText('HIJACKED issue')).toHaveCount(0);
    await admin.goto('/admin/settings');
    await expect(admin.getByLabel('Hero title')).not.toHaveValue('HIJACKED');
    await expect(admin.getByLabel('Header font')).not.toHaveValue('Permanent Marker');
  } finally {
    await admin.context().close();
  }
}

test.describe('authorisation of the newsletter, messages, shows and settings screens', () => {
  test('a visitor is sent to /auth and changes nothing', async ({
    page,
    browser,
    accounts: _accounts,
  }) => {
    const records = await expectRefused(page, 'visitor', []);
    await expectUnchanged(browser, records);
  });

  test('a plain user is sent home and changes nothing', async ({
    userPage,
    browser,
    accounts: _accounts,
  }) => {
    const records = await expectRefused(userPage, 'user', []);
    await expectUnchanged(browser, records);
  });
});
