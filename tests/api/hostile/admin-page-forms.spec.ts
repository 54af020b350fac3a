import { type APIRequestContext, expect, test } from '@playwright/test';

import { disposeRoles, files, type Roles, roles } from '../helpers';
import { raw } from '../raw-http';
import {
  big,
  type Case,
  cookieOf,
  type Count,
  formCases,
  junk,
  marked,
  multipartBody,
  req,
  type Role,
  runGroup,
} from './support';

/**
 * Hostile input to the admin page forms (shows, settings, newsletter, the featured toggle,
 * the upload forms): see ./support.ts. One test: the featured flags and the theme must come
 * out of all its groups unchanged.
 */

let r: Roles;
const sent: Count = { cases: 0 };
test.beforeAll(async () => {
  r = await roles();
});
test.afterAll(async () => {
  await disposeRoles(r);
  console.log(`[hostile-input/admin-page-forms] ${sent.cases} hostile cases sent`);
  sent.cases = 0;
});

test('hostile input: admin page forms', async () => {
  const show = (m: string) => ({
    title: `S ${m}`,
    venue: `V ${m}`,
    location: 'NJ',
    date: '2030-01-01',
    time: '8:00 PM',
    ticketUrl: '',
    description: m,
  });
  const theme = (await (await r.admin.get('/api/admin/theme')).json()) as Record<string, string>;
  const tracks = (await (await r.anon.get('/api/tracks')).json()) as {
    id: number;
    featured: boolean;
  }[];
  const upload = (
    path: string,
    valid: (m: string) => Record<string, string>,
    fileField: string,
    breakIt: (f: Record<string, string>) => Record<string, string>,
  ): Case[] =>
    [
      {
        name: 'no fields',
        send: (ctx: APIRequestContext) =>
          req(ctx, 'post', path, { multipart: {}, maxRedirects: 0 }),
      },
      {
        name: 'junk as the image',
        send: (ctx: APIRequestContext, m: string) =>
          req(ctx, 'post', path, {
            multipart: { ...valid(m), [fileField]: junk(m, 'x.jpg', 'image/jpeg') },
            maxRedirects: 0,
          }),
      },
      {
        name: 'traversal file name, broken field',
        send: (ctx: APIRequestContext, m: string) =>
          req(ctx, 'post', path, {
            multipart: {
              ...breakIt(valid(m)),
              [fileField]: marked(files.cover(), m, `../../${m}.jpg`),
            },
            maxRedirects: 0,
          }),
      },
      {
        name: '1 MB title',
        send: (ctx: APIRequestContext, m: string) =>
          req(ctx, 'post', path, {
            multipart: { ...valid(m), title: big(m), [fileField]: marked(files.cover(), m) },
            maxRedirects: 0,
          }),
      },
      {
        name: 'operator keys',
        send: (ctx: APIRequestContext, m: string) =>
          req(ctx, 'post', path, {
            multipart: { 'title[$ne]': m, [fileField]: marked(files.cover(), m) },
            maxRedirects: 0,
          }),
      },
      {
        name: '<script> title, broken field',
        send: (ctx: APIRequestContext, m: string) =>
          req(ctx, 'post', path, {
            multipart: {
              ...breakIt(
                Object.fromEntries(Object.keys(valid(m)).map((k) => [k, `<script>${m}</script>`])),
              ),
              [fileField]: marked(files.cover(), m),
            },
            maxRedirects: 0,
          }),
      },
      {
        name: 'urlencoded instead of multipart',
        send: (ctx: APIRequestContext, m: string) =>
          req(ctx, 'post', path, { form: valid(m), maxRedirects: 0 }),
      },
      {
        name: 'JSON instead of multipart',
        send: (ctx: APIRequestContext, m: string) =>
          req(ctx, 'post', path, { data: valid(m), maxRedirects: 0 }),
      },
      {
        name: 'whitespace fields',
        send: (ctx: APIRequestContext, m: string) =>
          req(ctx, 'post', path, {
            multipart: Object.fromEntries(Object.keys(valid(m)).map((k) => [k, '  '])),
            maxRedirects: 0,
          }),
      },
      {
        name: 'SVG with a script',
        send: (ctx: APIRequestContext, m: string) =>
          req(ctx, 'post', path, {
            multipart: {
              ...valid(m),
              [fileField]: {
                name: 'x.svg',
                mimeType: 'image/svg+xml',
                buffer: Buffer.from(`<svg><script>${m}</script></svg>`),
              },
            },
            maxRedirects: 0,
          }),
      },
      {
        name: 'truncated multipart',
        send: async (_ctx: APIRequestContext, m: string) => {
          const b = '----pageBoundary';
          const full = multipartBody(b, valid(m), {
            ...marked(files.cover(), m),
            field: fileField,
          });
          const cut = full.subarray(0, full.length - 300);
          return raw(
            'POST',
            path,
            {
              'Content-Type': `multipart/form-data; boundary=${b}`,
              'Content-Length': String(cut.length),
            },
            [cut],
            { cookie: await cookieOf(r, 'admin') },
          );
        },
      },
      {
        name: 'as a plain user',
        role: 'user' as Role,
        send: (ctx: APIRequestContext, m: string) =>
          req(ctx, 'post', path, {
            multipart: { ...valid(m), [fileField]: marked(files.cover(), m) },
            maxRedirects: 0,
          }),
      },
    ].map((c) => ({
      role: 'admin' as Role,
      html: true,
      allow: c.role === 'user' ? [302] : [],
      ...c,
    }));

  await runGroup(r, sent, 'admin forms', [
    {
      endpoint: 'POST /admin/shows/new',
      cases: formCases(
        '/admin/shows/new',
        {},
        ['title', 'venue', 'location', 'date', 'time', 'description'],
        show,
        (f) => ({ ...f, date: '2030-13-45' }),
        'admin',
      ),
    },
    {
      endpoint: 'POST /admin/settings',
      cases: formCases(
        '/admin/settings',
        {},
        ['primary', 'variant', 'appearance', 'headerFont', 'bodyFont', 'heroTitle'],
        (m) => ({ ...theme, radius: String(theme.radius), heroTitle: m }),
        (f) => ({ ...f, radius: '9' }),
        'admin',
      ),
    },
    {
      endpoint: 'POST /admin/newsletter',
      cases: formCases(
        '/admin/newsletter',
        {},
        ['subject', 'content'],
        (m) => ({ subject: `S ${m}`, content: `Content ${m} long enough` }),
        (f) => ({ ...f, subject: 'x' }),
        'admin',
      ),
    },
    {
      endpoint: 'POST /admin/tracks (featured toggle)',
      cases: ['abc', '-1', '999999', '{"$ne":null}', '', '1.5', '../1', '0x1', ' ', '1e2'].map(
        (id) => ({
          name: `toggle id ${JSON.stringify(id)}`,
          role: 'admin' as const,
          html: true,
          // Failures come back as a redirect with an error toast (the list page shows it).
          allow: [302],
          send: (ctx: APIRequestContext) =>
            req(ctx, 'post', '/admin/tracks', {
              form: { intent: 'toggle-featured', id, featured: 'true' },
              maxRedirects: 0,
            }),
        }),
      ),
    },
    {
      endpoint: 'POST /admin/tracks/new',
      cases: upload(
        '/admin/tracks/new',
        (m) => ({ title: `T ${m}`, duration: '3:00', featured: 'false' }),
        'coverImage',
        (f) => ({ ...f, duration: 'abc' }),
      ),
    },
    {
      endpoint: 'POST /admin/gallery/new',
      cases: upload(
        '/admin/gallery/new',
        (m) => ({ title: `G ${m}`, description: m }),
        'image',
        (f) => ({ ...f, title: '' }),
      ),
    },
    {
      endpoint: 'POST /admin/blog/new',
      cases: upload(
        '/admin/blog/new',
        (m) => ({
          title: `B ${m}`,
          slug: `b-${m.toLowerCase()}`,
          content: m,
          excerpt: m,
          category: 'NEWS',
        }),
        'image',
        (f) => ({ ...f, slug: 'Bad Slug' }),
      ),
    },
  ]);
  // The featured flags did not move.
  const after = (await (await r.anon.get('/api/tracks')).json()) as {
    id: number;
    featured: boolean;
  }[];
  for (const t of tracks) {
    const now = after.find((a) => a.id === t.id);
    if (now) expect(now.featured, `track ${t.id}`).toBe(t.featured);
  }
  expect(await (await r.admin.get('/api/admin/theme')).json()).toEqual(theme);
});
