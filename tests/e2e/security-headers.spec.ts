import { expect, test } from './fixtures';

/**
 * Security headers on HTML answers, and no Content-Security-Policy violation while the
 * pages load and hydrate (inline scripts carry the per-request nonce).
 */

const PAGES = [
  '/',
  '/music',
  '/gallery',
  '/blog',
  '/shows',
  '/about',
  '/contact',
  '/auth',
  '/privacy',
  '/no-such-page',
];

test('HTML answers carry the CSP with a fresh nonce and the other security headers', async ({
  page,
}) => {
  const nonces = new Set<string>();
  for (const path of ['/', '/music']) {
    const response = await page.goto(path);
    const headers = response!.headers();
    const csp = headers['content-security-policy'] ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("base-uri 'self'");
    expect(csp).toContain("object-src 'none'");
    nonces.add(/'nonce-([^']+)'/.exec(csp)![1]!);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['permissions-policy']).toContain('camera=()');
    expect(headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(headers['x-powered-by']).toBeUndefined();
    expect(headers['x-request-id']).toMatch(/^[\w-]{8,}$/);
  }
  expect(nonces.size).toBe(2);
});

test('no CSP violation on the public pages', async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, 'violations of scripts only happen with JavaScript on');
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (execute|load|apply)/i.test(message.text()))
      violations.push(message.text());
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  // The oldest post is seeded: the newest may be another test's, deleted meanwhile.
  const slug = ((await (await page.request.get('/api/blog')).json()) as { slug: string }[]).at(
    -1,
  )?.slug;
  for (const path of [...PAGES, ...(slug ? [`/blog/${slug}`] : [])]) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    const events = await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
    violations.push(...events.map((e) => `${path}: ${e}`));
  }
  // Client-side navigation (single fetch, lazy route discovery) too.
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Shows' }).click();
  await expect(page).toHaveURL(/\/shows$/);
  await page.waitForLoadState('networkidle');
  violations.push(...(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)));
  expect(violations).toEqual([]);
});

test('/healthz reports the database', async ({ request }) => {
  const response = await request.get('/healthz');
  expect(response.status()).toBe(200);
  expect(await response.json()).toMatchObject({ status: 'ok' });
  expect(response.headers()['cache-control']).toBe('no-store');
});
