import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect, test } from '@playwright/test';

import { apiLogin, startServer, type TestServer } from '../security/server';

/**
 * The site name is a setting (SITE_NAME): every page's title and description take it from
 * there (seoSite, pageTitle, adminTitle in app/utils/seo/seo.ts), none hard-codes the default.
 * Runs its own server with another name.
 */
const SITE = 'Harbour Lights';

let dir: string;
let app: TestServer;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-site-name-'));
  app = await startServer(dir, { SITE_NAME: SITE });
});

test.afterAll(async () => {
  if (app) {
    app.proc.kill('SIGTERM');
    await app.exited;
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The page's `<head>`, the default site name nowhere in it. */
async function head(pathname: string, cookie?: string): Promise<string> {
  const res = await fetch(`${app.url}${pathname}`, { headers: cookie ? { Cookie: cookie } : {} });
  const html = await res.text();
  const headHtml = html.slice(0, html.indexOf('</head>'));
  expect(headHtml, pathname).not.toContain('Night Shore');
  return headHtml;
}

const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

test('titles and descriptions carry SITE_NAME, never the default name', async () => {
  const pages: Record<string, string> = {
    '/terms': `Terms of Service — ${SITE}`,
    '/privacy': `Privacy Policy — ${SITE}`,
    '/auth': `Login — ${SITE}`,
    '/auth?tab=register': `Register — ${SITE}`,
    '/unsubscribe/not-a-token': `Unsubscribe — ${SITE}`,
    '/newsletter/confirm/not-a-token': `Confirm your subscription — ${SITE}`,
    '/music': `Music — ${SITE}`,
  };
  for (const [pathname, title] of Object.entries(pages)) {
    expect(titleOf(await head(pathname)), pathname).toBe(title);
  }
  expect(await head('/terms')).toContain(`The terms for using the ${SITE} website.`);
  expect(await head('/music')).toContain(`Listen to every ${SITE} track`);
  expect(await head('/')).toContain(`title="${SITE} Blog"`);

  const member = { username: `sitename${Date.now().toString(36)}`, password: 'site-name-pass-1' };
  const registered = await fetch(`${app.url}/api/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: app.url },
    body: JSON.stringify(member),
  });
  expect(registered.status, await registered.text()).toBe(201);
  const cookie = await apiLogin(app.url, member.username, member.password);
  const memberPages: Record<string, string> = {
    '/account': `Account — ${SITE}`,
    '/account/favourites': `My favourites — ${SITE}`,
    '/account/delete': `Delete my account — ${SITE}`,
    '/account/verify-email/not-a-token': `Confirm your email address — ${SITE}`,
  };
  for (const [pathname, title] of Object.entries(memberPages)) {
    expect(titleOf(await head(pathname, cookie)), pathname).toBe(title);
  }
});
