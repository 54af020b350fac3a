import { expect, test } from '@playwright/test';

import { API_USER, baseURL, disposeRoles, type Roles, roles, SAME_ORIGIN, unique } from './helpers';
import { raw } from './raw-http';

/**
 * Every state-changing request is checked at the door (docs/decisions/028-trust-boundary.md):
 * a request whose Origin, else Sec-Fetch-Site, says it comes from another site is a 403
 * before any action runs, on page forms and /api alike, and changes nothing. A sibling
 * subdomain counts as another site (SameSite=Lax cookies would let it through).
 */

let r: Roles;
test.beforeAll(async () => {
  r = await roles();
});
test.afterAll(async () => {
  await disposeRoles(r);
});

/** What a browser on another site says about a request it sends here. */
const FOREIGN: Record<string, Record<string, string>> = {
  'an Origin of another site': { Origin: 'https://evil.example' },
  'a sibling subdomain': {
    Origin: baseURL.replace('//localhost', '//shop.localhost'),
    'Sec-Fetch-Site': 'same-site',
  },
  'Origin: null (a sandboxed frame, a redirect)': { Origin: 'null' },
  'Sec-Fetch-Site: cross-site alone': { 'Sec-Fetch-Site': 'cross-site' },
  'Sec-Fetch-Site: same-site alone': { 'Sec-Fetch-Site': 'same-site' },
};

const form = (fields: Record<string, string>) => ({
  type: 'application/x-www-form-urlencoded',
  body: new URLSearchParams(fields).toString(),
});
const json = (value: unknown) => ({ type: 'application/json', body: JSON.stringify(value) });

type Target = {
  method: string;
  path: string;
  body?: { type: string; body: string };
  role: 'anon' | 'user' | 'admin';
};

async function cookieOf(role: Target['role']): Promise<string> {
  const state = await r[role].storageState();
  return state.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

async function send(target: Target, headers: Record<string, string>) {
  const cookie = target.role === 'anon' ? undefined : await cookieOf(target.role);
  const body = target.body ? [target.body.body] : [];
  const type: Record<string, string> = target.body ? { 'Content-Type': target.body.type } : {};
  // raw() sends the site's own Origin unless told otherwise: none for header-only cases.
  const origin = 'Origin' in headers ? undefined : null;
  return raw(target.method, target.path, { ...type, ...headers }, body, { cookie, origin });
}

test('a cross-site request to any state-changing surface is a 403, JSON under /api', async () => {
  const m = unique();
  const targets: Target[] = [
    // Page actions.
    { method: 'POST', path: '/auth', role: 'anon', body: form({ intent: 'login', ...API_USER }) },
    {
      method: 'POST',
      path: '/account',
      role: 'user',
      body: form({ intent: 'email', email: `x${m}@example.com` }),
    },
    {
      method: 'POST',
      path: '/account/delete',
      role: 'user',
      body: form({ password: API_USER.password }),
    },
    {
      method: 'POST',
      path: '/shows',
      role: 'user',
      body: form({ intent: 'guest-list-request', showId: '1' }),
    },
    { method: 'POST', path: '/logout', role: 'user' },
    {
      method: 'POST',
      path: '/contact',
      role: 'anon',
      body: form({
        name: 'X',
        email: 'x@example.com',
        subject: 'Booking Inquiry',
        message: 'A message long enough.',
      }),
    },
    {
      method: 'POST',
      path: '/?index',
      role: 'anon',
      body: form({ intent: 'subscribe', email: `n${m}@example.com`, privacy: 'on' }),
    },
    { method: 'POST', path: `/unsubscribe/1.${'A'.repeat(32)}`, role: 'anon' },
    { method: 'POST', path: '/admin/shows/new', role: 'admin', body: form({ title: `Show ${m}` }) },
    {
      method: 'POST',
      path: '/admin/settings',
      role: 'admin',
      body: form({ intent: 'newsletter-settings' }),
    },
    { method: 'POST', path: '/admin/tracks/1/delete', role: 'admin' },
    // /api mutations.
    {
      method: 'POST',
      path: '/api/subscribe',
      role: 'anon',
      body: json({ email: `s${m}@example.com` }),
    },
    { method: 'POST', path: '/api/contact', role: 'anon', body: json({ name: 'X' }) },
    { method: 'POST', path: '/api/login', role: 'anon', body: json(API_USER) },
    {
      method: 'POST',
      path: '/api/register',
      role: 'anon',
      body: json({ username: `u${m}`, password: 'pw-long-enough-1' }),
    },
    { method: 'POST', path: '/api/logout', role: 'user' },
    { method: 'POST', path: '/api/plays', role: 'anon', body: json({ trackId: 1 }) },
    { method: 'PUT', path: '/api/favorites/1', role: 'user' },
    { method: 'DELETE', path: '/api/favorites/1', role: 'user' },
    { method: 'POST', path: '/api/admin/shows', role: 'admin', body: json({ title: `Show ${m}` }) },
    { method: 'PUT', path: '/api/admin/theme', role: 'admin', body: json({ primary: '#000000' }) },
    { method: 'DELETE', path: '/api/admin/subscribers/1', role: 'admin' },
    { method: 'DELETE', path: '/api/admin/messages/1', role: 'admin' },
  ];
  for (const target of targets) {
    for (const [how, headers] of Object.entries(FOREIGN)) {
      // The one exception (decision 038): the count-only plays beacon of a sandboxed embed
      // arrives with Origin: null (tests/api/oembed.spec.ts checks it and the others refusing).
      if (target.path === '/api/plays' && headers.Origin === 'null') continue;
      const label = `${target.method} ${target.path} with ${how}`;
      const res = await send(target, headers);
      expect.soft(res.status, label).toBe(403);
      expect.soft(res.headers['set-cookie'], `${label}: no cookie set`).toBeUndefined();
      if (target.path.startsWith('/api/')) {
        expect.soft(JSON.parse(res.body) as unknown, label).toEqual({
          error: 'Cross-origin request refused',
        });
      } else {
        expect.soft(res.body.trim(), label).toBe('Cross-origin request refused');
      }
    }
  }
});

test('refused cross-site requests change nothing: no login, no account, no email, no show, no sign-up', async () => {
  const m = unique();
  const evil = FOREIGN['an Origin of another site'] ?? {};
  const own = { Origin: baseURL, 'Sec-Fetch-Site': 'same-origin' };
  // Each request is sent from another site (refused), then from the site itself: the second
  // takes effect, so the first was a request that would have worked.

  // Login CSRF: no session for the attacker's account.
  const login: Target = {
    method: 'POST',
    path: '/auth',
    role: 'anon',
    body: form({ intent: 'login', ...API_USER }),
  };
  expect((await send(login, evil)).headers['set-cookie']).toBeUndefined();
  expect((await send(login, own)).headers['set-cookie']).toBeDefined();

  // Registration: the name stays free until the site itself registers it.
  const name = `csrf${m}`;
  const password = 'pw-long-enough-1';
  const register: Target = {
    method: 'POST',
    path: '/auth',
    role: 'anon',
    body: form({ intent: 'register', username: name, password, confirmPassword: password }),
  };
  const logInAs = () =>
    r.anon.post('/api/login', { data: { username: name, password }, headers: SAME_ORIGIN });
  await send(register, evil);
  expect((await logInAs()).status()).toBe(401);
  await send(register, own);
  expect((await logInAs()).status()).toBe(200);

  // The account's email is not set.
  const email = `victim${m}@example.com`;
  const setEmail: Target = {
    method: 'POST',
    path: '/account',
    role: 'user',
    body: form({ intent: 'email', email, newsletter: 'on' }),
  };
  await send(setEmail, evil);
  expect(await (await r.user.get('/account')).text()).not.toContain(email);

  // The account is not deleted (not sent from the site: the api suite shares this user).
  await send(
    {
      method: 'POST',
      path: '/account/delete',
      role: 'user',
      body: form({ password: API_USER.password }),
    },
    evil,
  );
  expect((await r.user.get('/api/user')).status()).toBe(200);

  // No show.
  const title = `CSRF show ${m}`;
  const show: Target = {
    method: 'POST',
    path: '/api/admin/shows',
    role: 'admin',
    body: json({
      title,
      venue: 'The Stone Pony',
      location: 'Asbury Park, NJ',
      date: '2031-05-01',
      time: '8:00 PM',
      ticketUrl: 'https://tickets.example.com/x',
      description: 'A night on the shore.',
    }),
  };
  const showTitles = async () =>
    ((await (await r.anon.get('/api/shows')).json()) as { title: string }[]).map((s) => s.title);
  await send(show, evil);
  expect(await showTitles()).not.toContain(title);
  expect((await send(show, own)).status).toBe(201);
  expect(await showTitles()).toContain(title);

  // No sign-up.
  const signUp = `signup${m}@example.com`;
  const subscribe: Target = {
    method: 'POST',
    path: '/api/subscribe',
    role: 'anon',
    body: json({ email: signUp }),
  };
  const listed = async () =>
    (
      (await (
        await r.admin.get(`/api/admin/subscribers?q=${encodeURIComponent(signUp)}`)
      ).json()) as { email: string }[]
    ).map((s) => s.email);
  await send(subscribe, evil);
  expect(await listed()).not.toContain(signUp);
  await send(subscribe, own);
  expect(await listed()).toContain(signUp);
});

test('the same requests from the site itself, or from a client that sends no origin, go through', async () => {
  const m = unique();
  const own = await send(
    {
      method: 'POST',
      path: '/api/subscribe',
      role: 'anon',
      body: json({ email: `own${m}@example.com` }),
    },
    { Origin: baseURL, 'Sec-Fetch-Site': 'same-origin' },
  );
  expect(own.status).toBe(201);
  const script = await send(
    {
      method: 'POST',
      path: '/api/subscribe',
      role: 'anon',
      body: json({ email: `script${m}@example.com` }),
    },
    {},
  );
  expect(script.status).toBe(201);
  // A browser's own form post without JavaScript: same-origin Origin, a redirect.
  const page = await send(
    { method: 'POST', path: '/auth', role: 'anon', body: form({ intent: 'login', ...API_USER }) },
    { Origin: baseURL, 'Sec-Fetch-Site': 'same-origin' },
  );
  expect(page.status).toBe(302);
  expect(page.headers['set-cookie']).toBeDefined();
});
