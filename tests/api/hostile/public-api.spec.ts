import { test } from '@playwright/test';

import { disposeRoles, type Roles, roles, SAME_ORIGIN } from '../helpers';
import { type Count, jsonCases, req, runGroup } from './support';

/**
 * Hostile input to the public /api endpoints (contact, subscribe, login, register, logout,
 * user): see ./support.ts. One test per endpoint group, each with its own marker.
 */

let r: Roles;
const sent: Count = { cases: 0 };
test.beforeAll(async () => {
  r = await roles();
});
test.afterAll(async () => {
  await disposeRoles(r);
  console.log(`[hostile-input/public-api] ${sent.cases} hostile cases sent`);
  sent.cases = 0;
});

const contactValid = (m: string) => ({
  name: `Name ${m}`,
  email: `${m}@example.com`,
  subject: 'Booking Inquiry',
  message: `Hello there ${m}, a long enough message.`,
});
const subscribeValid = (m: string) => ({ name: `Sub ${m}`, email: `${m}@example.com` });
const creds = (m: string) => ({ username: m.slice(0, 40), password: `pw-${m}` });

test('hostile input: POST /api/contact', async () => {
  await runGroup(r, sent, 'public api: POST /api/contact', [
    {
      endpoint: 'POST /api/contact',
      cases: [
        ...jsonCases(
          'post',
          '/api/contact',
          ['name', 'email', 'subject', 'message'],
          contactValid,
          (b) => ({ ...b, email: 'not-an-email' }),
        ),
        {
          name: 'subject outside the list',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/contact', {
              data: { ...contactValid(m), subject: `<b>${m}</b>` },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'message too short',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/contact', {
              data: { ...contactValid(m), message: 'hi' },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'email with a CRLF header injection',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/contact', {
              data: { ...contactValid(m), email: `a@b.c\r\nBcc: ${m}@evil.example` },
              headers: SAME_ORIGIN,
            }),
        },
      ],
    },
  ]);
});

test('hostile input: POST /api/subscribe', async () => {
  await runGroup(r, sent, 'public api: POST /api/subscribe', [
    {
      endpoint: 'POST /api/subscribe',
      cases: [
        ...jsonCases('post', '/api/subscribe', ['name', 'email'], subscribeValid, (b) => ({
          ...b,
          email: `${String(b.email)}@@`,
        })),
        {
          name: 'email 300 characters',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/subscribe', {
              data: { email: `${m}${'a'.repeat(300)}@example.com` },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'email as {"$regex": ".*"}',
          send: (ctx) =>
            req(ctx, 'post', '/api/subscribe', {
              data: { email: { $regex: '.*' } },
              headers: SAME_ORIGIN,
            }),
        },
      ],
    },
  ]);
});

test('hostile input: POST /api/login', async () => {
  await runGroup(r, sent, 'public api: POST /api/login', [
    {
      endpoint: 'POST /api/login',
      cases: [
        ...jsonCases('post', '/api/login', ['username', 'password'], creds, (b) => ({
          ...b,
          password: '',
        })),
        // The classic: operators instead of credentials must log nobody in.
        {
          name: '{"username": {"$ne": null}, "password": {"$ne": null}}',
          send: (ctx) =>
            req(ctx, 'post', '/api/login', {
              data: { username: { $ne: null }, password: { $ne: null } },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'username "api-admin" with password {"$gt": ""}',
          send: (ctx) =>
            req(ctx, 'post', '/api/login', {
              data: { username: 'api-admin', password: { $gt: '' } },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'username[$regex]=.* as a form',
          send: (ctx) =>
            req(ctx, 'post', '/api/login', {
              form: { 'username[$regex]': '.*', 'password[$ne]': 'x' },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'wrong password for a real user (401)',
          send: (ctx) =>
            req(ctx, 'post', '/api/login', {
              data: { username: 'api-admin', password: 'wrong-password' },
              headers: SAME_ORIGIN,
            }),
        },
      ],
    },
  ]);
});

test('hostile input: POST /api/register', async () => {
  await runGroup(r, sent, 'public api: POST /api/register', [
    {
      endpoint: 'POST /api/register',
      cases: [
        ...jsonCases('post', '/api/register', ['username', 'password'], creds, (b) => ({
          ...b,
          password: '12',
        })),
        {
          name: 'username with spaces and HTML',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/register', {
              data: { username: `<img src=x onerror=alert(1)> ${m}`, password: 'secret-123' },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'username of 51 characters',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/register', {
              data: { username: `${m}${'u'.repeat(51)}`, password: 'secret-123' },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'username with a slash and dots (../)',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/register', {
              data: { username: `../${m}`, password: 'secret-123' },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'password of 201 characters',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/register', {
              data: { username: m.slice(0, 40), password: 'p'.repeat(201) },
              headers: SAME_ORIGIN,
            }),
        },
      ],
    },
  ]);
});

test('hostile input: GET/POST /api/user, /api/logout', async () => {
  await runGroup(r, sent, 'public api: GET/POST /api/user, /api/logout', [
    {
      endpoint: 'GET/POST /api/user, /api/logout',
      cases: [
        { name: 'GET /api/user anonymous (401)', send: (ctx) => ctx.get('/api/user') },
        {
          name: 'GET /api/user with a forged session cookie',
          send: (ctx) => ctx.get('/api/user', { headers: { Cookie: '__session=eyJ4Ijoi.forged' } }),
        },
        {
          name: 'GET /api/user with a 4 KB cookie',
          send: (ctx) =>
            ctx.get('/api/user', { headers: { Cookie: `__session=${'a'.repeat(4000)}` } }),
        },
        {
          name: 'GET /api/user with a signed-looking id of 1 KB',
          send: (ctx) =>
            ctx.get('/api/user', {
              headers: { Cookie: `__session=${encodeURIComponent(`"${'b'.repeat(1000)}".sig`)}` },
            }),
        },
        {
          name: 'POST /api/user (405)',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/user', { data: { username: m }, headers: SAME_ORIGIN }),
        },
        {
          name: 'DELETE /api/user (405)',
          send: (ctx) => req(ctx, 'delete', '/api/user', { headers: SAME_ORIGIN }),
        },
        { name: 'GET /api/logout (405)', send: (ctx) => ctx.get('/api/logout') },
        {
          name: 'POST /api/logout cross-origin',
          send: (ctx) =>
            req(ctx, 'post', '/api/logout', { headers: { Origin: 'https://evil.example' } }),
        },
        {
          name: 'PUT /api/logout (405)',
          send: (ctx) => req(ctx, 'put', '/api/logout', { headers: SAME_ORIGIN }),
        },
        {
          name: 'POST /api/contact cross-origin',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/contact', {
              data: contactValid(m),
              headers: { Origin: 'https://evil.example' },
            }),
        },
        {
          name: 'POST /api/subscribe with Sec-Fetch-Site cross-site',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/subscribe', {
              data: subscribeValid(m),
              headers: { 'Sec-Fetch-Site': 'cross-site' },
            }),
        },
      ],
    },
  ]);
});
