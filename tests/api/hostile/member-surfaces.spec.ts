import { type APIRequestContext, test } from '@playwright/test';

import { disposeRoles, type Roles, roles, SAME_ORIGIN } from '../helpers';
import {
  BAD_IDS,
  big,
  type Case,
  type Count,
  formCases,
  jsonCases,
  req,
  type Role,
  runGroup,
} from './support';

/**
 * Hostile input to the surfaces added after the first hostile-input suite: favourites, plays,
 * the account's email and deletion, guest lists, the link-token pages (unsubscribe, newsletter
 * confirmation, account email verification), the statistics and the newsletter archive. See
 * ./support.ts: every answer a 4xx with a message, never a 5xx, nothing stored with the
 * marker. Forged hosts and foreign origins on the same surfaces: ../trust-boundary.spec.ts and
 * ../cross-site.spec.ts.
 */

let r: Roles;
const sent: Count = { cases: 0 };
test.beforeAll(async () => {
  r = await roles();
});
test.afterAll(async () => {
  await disposeRoles(r);
  console.log(`[hostile-input/member-surfaces] ${sent.cases} hostile cases sent`);
  sent.cases = 0;
});

const formPost = (path: string, form: Record<string, string>) => (ctx: APIRequestContext) =>
  req(ctx, 'post', path, { form, maxRedirects: 0 });

test('hostile input: PUT and DELETE /api/favorites/:trackId', async () => {
  const cases = (method: 'put' | 'delete'): Case[] =>
    BAD_IDS.map((id) => ({
      name: `${method.toUpperCase()} /api/favorites/${id}`,
      role: 'user' as Role,
      send: (ctx: APIRequestContext) =>
        req(ctx, method, `/api/favorites/${id}`, { headers: SAME_ORIGIN }),
    }));
  await runGroup(r, sent, 'member surfaces: /api/favorites/:trackId', [
    {
      endpoint: 'PUT /api/favorites/:trackId',
      // A well-formed id of no track: 404 Track not found.
      cases: [
        ...cases('put'),
        {
          name: 'PUT a track that does not exist',
          role: 'user',
          send: (ctx) => req(ctx, 'put', '/api/favorites/987654321', { headers: SAME_ORIGIN }),
        },
      ],
    },
    { endpoint: 'DELETE /api/favorites/:trackId', cases: cases('delete') },
  ]);
});

test('hostile input: POST /api/favorites (the merge of a visitor’s list)', async () => {
  const merge = (data: unknown) => (ctx: APIRequestContext) =>
    req(ctx, 'post', '/api/favorites', { data, headers: SAME_ORIGIN });
  await runGroup(r, sent, 'member surfaces: POST /api/favorites', [
    {
      endpoint: 'POST /api/favorites (JSON)',
      cases: [
        ...jsonCases(
          'post',
          '/api/favorites',
          ['trackIds'],
          () => ({ trackIds: [1] }),
          (b) => ({ ...b, trackIds: 'x' }),
        ),
        {
          name: '501 ids (over the cap)',
          send: merge({ trackIds: Array.from({ length: 501 }, (_, i) => i + 1) }),
        },
        { name: 'negative and fractional ids', send: merge({ trackIds: [-1, 1.5] }) },
        {
          name: 'ids as strings with the marker',
          send: (ctx: APIRequestContext, m: string) => merge({ trackIds: [m] })(ctx),
        },
        { name: 'nested lists', send: merge({ trackIds: [[1], [2]] }) },
      ].map((c) => ({ ...c, role: 'user' as Role })),
    },
  ]);
});

test('hostile input: POST /api/plays', async () => {
  await runGroup(r, sent, 'member surfaces: POST /api/plays', [
    {
      endpoint: 'POST /api/plays',
      cases: [
        ...jsonCases(
          'post',
          '/api/plays',
          ['trackId'],
          () => ({ trackId: 1 }),
          (b) => ({ ...b, trackId: 'x' }),
        ),
        {
          name: 'a track that does not exist',
          send: (ctx) =>
            req(ctx, 'post', '/api/plays', { data: { trackId: 987654321 }, headers: SAME_ORIGIN }),
        },
        {
          name: 'a negative id',
          send: (ctx) =>
            req(ctx, 'post', '/api/plays', { data: { trackId: -3 }, headers: SAME_ORIGIN }),
        },
      ],
    },
  ]);
});

const REMOVES_THE_ADDRESS = ['no fields', 'whitespace-only fields', 'operator keys (field[$ne]=x)'];

test('hostile input: POST /account (email) and POST /account/delete', async () => {
  await runGroup(r, sent, 'member surfaces: the account email and deletion', [
    {
      endpoint: 'POST /account (email)',
      // No address (an empty, blank or missing field) removes the account's address: a
      // redirect, as decision 020 has it; every other case is refused.
      cases: formCases(
        '/account',
        { intent: 'email' },
        ['email'],
        (m) => ({ email: `${m}@example.com`, newsletter: 'on' }),
        (f) => ({ ...f, email: 'not-an-address' }),
        'user',
      ).map((c) => (REMOVES_THE_ADDRESS.includes(c.name) ? { ...c, allow: [302] } : c)),
    },
    {
      endpoint: 'POST /account/delete',
      // Never the account's password: every case is a wrong or malformed one.
      cases: formCases(
        '/account/delete',
        {},
        ['password'],
        (m) => ({ password: `${m}-not-the-password` }),
        (f) => ({ ...f, password: '' }),
        'user',
      ),
    },
  ]);
});

test('hostile input: POST /shows (guest list)', async () => {
  const form = (fields: Record<string, string>) => formPost('/shows', fields);
  const request = (showId: string) => form({ intent: 'guest-list-request', showId });
  const cases: Case[] = [
    { name: 'no fields', send: form({}) },
    { name: 'no show', send: form({ intent: 'guest-list-request' }) },
    { name: 'no intent', send: form({ showId: '1' }) },
    { name: 'an unknown intent', send: form({ intent: 'guest-list-take-all', showId: '1' }) },
    { name: 'a show id that is not a number', send: request('abc') },
    { name: 'a negative show id', send: request('-1') },
    { name: 'a show that does not exist', send: request('987654321') },
    { name: 'a 1 MB show id', send: (ctx, m) => request(big(m))(ctx) },
    {
      name: 'operator keys',
      send: (ctx, m) => form({ intent: 'guest-list-request', 'showId[$ne]': m })(ctx),
    },
    {
      name: 'a JSON body',
      send: (ctx) =>
        req(ctx, 'post', '/shows', {
          data: { intent: 'guest-list-request', showId: { $gt: 0 } },
          maxRedirects: 0,
        }),
    },
    {
      name: 'a text/plain body',
      send: (ctx, m) =>
        req(ctx, 'post', '/shows', {
          data: `intent=guest-list-request&showId=${m}`,
          headers: { 'Content-Type': 'text/plain' },
          maxRedirects: 0,
        }),
    },
  ];
  await runGroup(r, sent, 'member surfaces: POST /shows (guest list)', [
    {
      endpoint: 'POST /shows (guest list)',
      cases: cases.map((c) => ({ ...c, role: 'user', html: true })),
    },
  ]);
});

/** Tokens no link of ours carries: malformed, oversized, tampered, injected. */
const BAD_TOKENS = (m: string) => [
  'x',
  '1.',
  '.',
  `1.${m}`,
  `1.2.${'A'.repeat(32)}`,
  `-1.${'A'.repeat(32)}`,
  `99999999999999.${'A'.repeat(32)}`,
  encodeURIComponent(`{"$ne":null}`),
  '%00',
  encodeURIComponent('<script>alert(1)</script>'),
  'A'.repeat(4000),
  `${'9'.repeat(12)}.${'z'.repeat(13)}.${'A'.repeat(32)}`,
];

test('hostile input: link tokens (unsubscribe, newsletter confirmation, account email)', async () => {
  const pages = (base: string, role: Role, methods: ('get' | 'post')[]): Case[] =>
    methods.flatMap((method) =>
      BAD_TOKENS('marker').map((token, i) => ({
        name: `${method.toUpperCase()} ${base}/<bad token ${i}>`,
        role,
        html: true,
        send: (ctx: APIRequestContext, m: string) => {
          const path = `${base}/${BAD_TOKENS(m)[i] ?? token}`;
          return method === 'get'
            ? ctx.get(path, { maxRedirects: 0 })
            : req(ctx, 'post', path, { form: { confirm: m }, maxRedirects: 0 });
        },
      })),
    );
  await runGroup(r, sent, 'member surfaces: link tokens', [
    { endpoint: '/unsubscribe/:token', cases: pages('/unsubscribe', 'anon', ['get', 'post']) },
    {
      endpoint: '/newsletter/confirm/:token',
      cases: pages('/newsletter/confirm', 'anon', ['get', 'post']),
    },
    {
      endpoint: '/account/verify-email/:token',
      cases: pages('/account/verify-email', 'user', ['get']),
    },
  ]);
});

test('hostile input: statistics and the newsletter archive', async () => {
  // (An empty `days` is the default, 30, as a missing one.)
  const days = ['0', '8', '-7', '7.5', 'abc', '1e1', '%00', '%24ne', 'x'.repeat(5000), '7,30'];
  const slugs = [
    '..%2F..%2Fetc%2Fpasswd',
    '%7B%22%24ne%22%3Anull%7D',
    '%00',
    'x'.repeat(3000),
    'no-such-issue',
    '<script>',
    'a%2Fb',
    '%20',
    'null',
    '...',
  ];
  await runGroup(r, sent, 'member surfaces: statistics and the newsletter archive', [
    {
      endpoint: 'GET /api/admin/stats?days=',
      cases: days.map((d) => ({
        name: `days=${d.slice(0, 20)}`,
        role: 'admin',
        send: (ctx) => ctx.get(`/api/admin/stats?days=${d}`),
      })),
    },
    {
      endpoint: 'GET /admin/stats.csv?days=',
      cases: days.map((d) => ({
        name: `days=${d.slice(0, 20)}`,
        role: 'admin',
        html: true,
        send: (ctx) => ctx.get(`/admin/stats.csv?days=${d}`, { maxRedirects: 0 }),
      })),
    },
    {
      endpoint: 'GET /newsletter/:slug',
      cases: slugs.map((s) => ({
        name: `/newsletter/${s.slice(0, 20)}`,
        html: true,
        send: (ctx) => ctx.get(`/newsletter/${s}`, { maxRedirects: 0 }),
      })),
    },
  ]);
});
