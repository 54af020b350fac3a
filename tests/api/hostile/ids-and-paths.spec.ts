import { type APIRequestContext, test } from '@playwright/test';

import { disposeRoles, type Roles, roles, SAME_ORIGIN } from '../helpers';
import { BAD_IDS, type Case, type Count, req, type Role, runGroup, type Send } from './support';

/**
 * Hostile ids, slugs, queries and paths (public reads, uploads, admin ids, admin /api
 * without the admin role): see ./support.ts. One test per endpoint group, each with its
 * own marker.
 */

let r: Roles;
const sent: Count = { cases: 0 };
test.beforeAll(async () => {
  r = await roles();
});
test.afterAll(async () => {
  await disposeRoles(r);
  console.log(`[hostile-input/ids-and-paths] ${sent.cases} hostile cases sent`);
  sent.cases = 0;
});

const get =
  (path: string): Send =>
  (ctx) =>
    ctx.get(path);
const idCases = (base: string, method: 'put' | 'delete', role: Role = 'admin'): Case[] =>
  BAD_IDS.map((id) => ({
    name: `${method.toUpperCase()} ${base}/${id}`,
    role,
    send: (ctx: APIRequestContext, m: string) =>
      method === 'put'
        ? req(ctx, 'put', `${base}/${id}`, { data: { title: m }, headers: SAME_ORIGIN })
        : req(ctx, 'delete', `${base}/${id}`, { headers: SAME_ORIGIN }),
  }));

test('hostile input: GET /api/blog/:slug', async () => {
  await runGroup(r, sent, 'ids and paths: GET /api/blog/:slug', [
    {
      endpoint: 'GET /api/blog/:slug',
      cases: [
        '/api/blog/..%2F..%2Fetc%2Fpasswd',
        '/api/blog/%2e%2e',
        '/api/blog/%7B%22%24ne%22%3Anull%7D',
        '/api/blog/%24ne',
        `/api/blog/${'a'.repeat(2000)}`,
        '/api/blog/%3Cscript%3Ealert(1)%3C%2Fscript%3E',
        '/api/blog/caf%C3%A9-%F0%9F%8E%B6',
        '/api/blog/%00',
        '/api/blog/%E0%A4%A',
        '/api/blog/a%20b',
      ].map((p) => ({ name: p.slice(0, 80), send: get(p) })),
    },
  ]);
});

test('hostile input: GET /uploads/*', async () => {
  await runGroup(r, sent, 'ids and paths: GET /uploads/*', [
    {
      endpoint: 'GET /uploads/*',
      cases: [
        '/uploads/../package.json',
        '/uploads/%2e%2e/package.json',
        '/uploads/..%2F..%2Fpackage.json',
        '/uploads/audio/..%2F..%2F..%2Fetc%2Fpasswd',
        '/uploads/audio/%2e%2e%2f%2e%2e%2fdata%2fsession-secret',
        '/uploads/.%2e/.%2e/etc/passwd',
        '/uploads/audio/.hidden.part',
        '/uploads/audio/fallback.mp3%00.jpg',
        '/uploads/images/%5C..%5C..%5Cpackage.json',
        '/uploads/audio/%E0%A4%A',
        '/uploads/',
        '/uploads/images/does-not-exist.jpg',
      ].map((p) => ({ name: p, html: true, send: get(p) })),
    },
  ]);
});

test('hostile input: PUT /api/admin/shows/:id', async () => {
  await runGroup(r, sent, 'ids and paths: PUT /api/admin/shows/:id', [
    { endpoint: 'PUT /api/admin/shows/:id', cases: idCases('/api/admin/shows', 'put') },
  ]);
});

test('hostile input: DELETE /api/admin/tracks/:id', async () => {
  await runGroup(r, sent, 'ids and paths: DELETE /api/admin/tracks/:id', [
    { endpoint: 'DELETE /api/admin/tracks/:id', cases: idCases('/api/admin/tracks', 'delete') },
  ]);
});

test('hostile input: DELETE /api/admin/gallery/:id', async () => {
  await runGroup(r, sent, 'ids and paths: DELETE /api/admin/gallery/:id', [
    { endpoint: 'DELETE /api/admin/gallery/:id', cases: idCases('/api/admin/gallery', 'delete') },
  ]);
});

test('hostile input: DELETE /api/admin/blog/:id', async () => {
  await runGroup(r, sent, 'ids and paths: DELETE /api/admin/blog/:id', [
    { endpoint: 'DELETE /api/admin/blog/:id', cases: idCases('/api/admin/blog', 'delete') },
  ]);
});

test('hostile input: DELETE /api/admin/subscribers/:id', async () => {
  await runGroup(r, sent, 'ids and paths: DELETE /api/admin/subscribers/:id', [
    {
      endpoint: 'DELETE /api/admin/subscribers/:id',
      cases: idCases('/api/admin/subscribers', 'delete'),
    },
  ]);
});

test('hostile input: DELETE /api/admin/messages/:id', async () => {
  await runGroup(r, sent, 'ids and paths: DELETE /api/admin/messages/:id', [
    { endpoint: 'DELETE /api/admin/messages/:id', cases: idCases('/api/admin/messages', 'delete') },
  ]);
});

test('hostile input: DELETE /api/admin/shows/:id', async () => {
  await runGroup(r, sent, 'ids and paths: DELETE /api/admin/shows/:id', [
    { endpoint: 'DELETE /api/admin/shows/:id', cases: idCases('/api/admin/shows', 'delete') },
  ]);
});

test('hostile input: admin /api as a plain user and anonymous', async () => {
  await runGroup(r, sent, 'ids and paths: admin /api as a plain user and anonymous', [
    {
      endpoint: 'admin /api as a plain user and anonymous',
      cases: [
        ...(['/api/admin/subscribers', '/api/admin/messages', '/api/admin/theme'] as const).flatMap(
          (p) => [
            { name: `GET ${p} anonymous`, send: get(p) },
            { name: `GET ${p} as user`, role: 'user' as const, send: get(p) },
          ],
        ),
        {
          name: 'POST /api/admin/shows as user',
          role: 'user',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/admin/shows', { data: { title: m }, headers: SAME_ORIGIN }),
        },
        {
          name: 'POST /api/admin/tracks/randomize-featured anonymous',
          send: (ctx) =>
            req(ctx, 'post', '/api/admin/tracks/randomize-featured', { headers: SAME_ORIGIN }),
        },
        {
          name: 'DELETE /api/admin/messages/1 as user',
          role: 'user',
          send: (ctx) => req(ctx, 'delete', '/api/admin/messages/1', { headers: SAME_ORIGIN }),
        },
        {
          name: 'POST /api/admin/theme as user',
          role: 'user',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/admin/theme', { data: { heroTitle: m }, headers: SAME_ORIGIN }),
        },
        { name: 'GET /api/does-not-exist', send: get('/api/does-not-exist') },
        {
          name: 'POST /api/tracks (405)',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/tracks', { data: { title: m }, headers: SAME_ORIGIN }),
        },
      ],
    },
  ]);
});
