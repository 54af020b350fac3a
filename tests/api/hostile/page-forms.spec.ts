import { test } from '@playwright/test';

import { disposeRoles, type Roles, roles, SAME_ORIGIN } from '../helpers';
import { type Count, formCases, req, runGroup } from './support';

/**
 * Hostile input to the public and account page forms (the HTML actions the site's own forms
 * post to, and the honeypot): see ./support.ts. One test per endpoint group, each with its
 * own marker.
 */

let r: Roles;
const sent: Count = { cases: 0 };
test.beforeAll(async () => {
  r = await roles();
});
test.afterAll(async () => {
  await disposeRoles(r);
  console.log(`[hostile-input/page-forms] ${sent.cases} hostile cases sent`);
  sent.cases = 0;
});

/** The oldest post is seeded: the newest may be another test's, deleted meanwhile. */
async function seededSlug(): Promise<string> {
  return ((await (await r.anon.get('/api/blog')).json()) as { slug: string }[]).at(-1)!.slug;
}
const contact = (m: string) => ({
  name: `N ${m}`,
  email: `${m}@example.com`,
  subject: 'Booking Inquiry',
  message: `Hello ${m}, long enough.`,
});
const subscribe = (m: string) => ({ name: `S ${m}`, email: `${m}@example.com`, privacy: 'on' });

test('hostile input: POST /contact', async () => {
  await runGroup(r, sent, 'public forms: POST /contact', [
    {
      endpoint: 'POST /contact',
      cases: formCases(
        '/contact',
        { intent: 'contact' },
        ['name', 'email', 'subject', 'message'],
        contact,
        (f) => ({ ...f, email: 'nope' }),
      ),
    },
  ]);
});

test('hostile input: POST / (newsletter)', async () => {
  await runGroup(r, sent, 'public forms: POST / (newsletter)', [
    {
      endpoint: 'POST / (newsletter)',
      cases: formCases('/', { intent: 'subscribe' }, ['name', 'email'], subscribe, (f) => ({
        ...f,
        privacy: '',
      })),
    },
  ]);
});

test('hostile input: POST /blog/:slug (newsletter)', async () => {
  const slug = await seededSlug();
  await runGroup(r, sent, `public forms: POST /blog/${slug} (newsletter)`, [
    {
      endpoint: `POST /blog/${slug} (newsletter)`,
      cases: formCases(
        `/blog/${slug}`,
        { intent: 'subscribe' },
        ['email'],
        (m) => ({ email: `${m}@example.com`, privacy: 'on' }),
        (f) => ({ ...f, email: 'x@' }),
      ),
    },
  ]);
});

test('hostile input: POST /auth (login)', async () => {
  await runGroup(r, sent, 'public forms: POST /auth (login)', [
    {
      endpoint: 'POST /auth (login)',
      cases: [
        ...formCases(
          '/auth',
          { intent: 'login' },
          ['username', 'password'],
          (m) => ({ username: m.slice(0, 40), password: m }),
          (f) => ({ ...f, password: '' }),
        ),
        {
          name: 'username[$ne]= & password[$ne]= logs nobody in',
          html: true,
          send: (ctx) =>
            req(ctx, 'post', '/auth', {
              form: { intent: 'login', 'username[$ne]': 'x', 'password[$ne]': 'x' },
              maxRedirects: 0,
            }),
        },
        {
          name: 'redirectTo to another site with bad credentials',
          html: true,
          send: (ctx, m) =>
            req(ctx, 'post', '/auth', {
              form: {
                intent: 'login',
                username: m.slice(0, 40),
                password: 'x',
                redirectTo: 'https://evil.example/',
              },
              maxRedirects: 0,
            }),
        },
      ],
    },
  ]);
});

test('hostile input: POST /auth (register)', async () => {
  await runGroup(r, sent, 'public forms: POST /auth (register)', [
    {
      endpoint: 'POST /auth (register)',
      cases: formCases(
        '/auth',
        { intent: 'register' },
        ['username', 'password', 'confirmPassword'],
        (m) => ({
          username: m.slice(0, 40),
          password: 'secret-123',
          confirmPassword: 'secret-123',
        }),
        (f) => ({ ...f, confirmPassword: 'different-1' }),
      ),
    },
  ]);
});

test('hostile input: POST /account (password change)', async () => {
  await runGroup(r, sent, 'public forms: POST /account (password change)', [
    {
      endpoint: 'POST /account (password change)',
      cases: formCases(
        '/account',
        {},
        ['currentPassword', 'newPassword', 'confirmPassword'],
        (m) => ({ currentPassword: 'wrong', newPassword: `n-${m}`, confirmPassword: `n-${m}` }),
        (f) => ({ ...f, confirmPassword: 'mismatch' }),
        'user',
      ),
    },
  ]);
});

test('hostile input: honeypot (the bot gets the success answer, nothing is stored)', async () => {
  const slug = await seededSlug();
  await runGroup(r, sent, 'public forms: honeypot', [
    {
      endpoint: 'honeypot (the bot gets the success answer, nothing is stored)',
      cases: [
        {
          name: 'contact form with the website field',
          html: true,
          allow: [302, 303],
          send: (ctx, m) =>
            req(ctx, 'post', '/contact', {
              form: { intent: 'contact', ...contact(m), website: 'http://spam.example' },
              maxRedirects: 0,
            }),
        },
        {
          name: 'home newsletter with the website field',
          html: true,
          allow: [302, 303],
          send: (ctx, m) =>
            req(ctx, 'post', '/', {
              form: { intent: 'subscribe', ...subscribe(m), website: 'spam' },
              maxRedirects: 0,
            }),
        },
        {
          name: 'post newsletter with the website field',
          html: true,
          allow: [302, 303],
          send: (ctx, m) =>
            req(ctx, 'post', `/blog/${slug}`, {
              form: { intent: 'subscribe', email: `${m}@example.com`, privacy: 'on', website: 'x' },
              maxRedirects: 0,
            }),
        },
        {
          name: '/api/contact with the website field',
          allow: [201],
          send: (ctx, m) =>
            req(ctx, 'post', '/api/contact', {
              data: { ...contact(m), website: 'spam' },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: '/api/subscribe with the website field',
          allow: [201],
          send: (ctx, m) =>
            req(ctx, 'post', '/api/subscribe', {
              data: { email: `${m}@example.com`, website: 'spam' },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'contact form, website as a file name',
          html: true,
          allow: [302, 303],
          send: (ctx, m) =>
            req(ctx, 'post', '/contact', {
              form: { intent: 'contact', ...contact(m), website: '../../x' },
              maxRedirects: 0,
            }),
        },
        {
          name: 'home newsletter, website only',
          html: true,
          send: (ctx, m) =>
            req(ctx, 'post', '/', { form: { intent: 'subscribe', website: m }, maxRedirects: 0 }),
        },
        {
          name: 'unknown intent on /',
          html: true,
          send: (ctx, m) => req(ctx, 'post', '/', { form: { intent: m }, maxRedirects: 0 }),
        },
        {
          name: 'unknown intent on /contact',
          html: true,
          send: (ctx, m) =>
            req(ctx, 'post', '/contact', { form: { intent: `x${m}` }, maxRedirects: 0 }),
        },
        {
          name: 'POST to an unknown page',
          html: true,
          send: (ctx, m) =>
            req(ctx, 'post', `/no-such-page-${m}`, { form: { a: m }, maxRedirects: 0 }),
        },
      ],
    },
  ]);
});
