import { expect, test } from '@playwright/test';

import { disposeRoles, type Roles, roles, SAME_ORIGIN, unique } from '../helpers';
import { big, type Case, type Count, jsonCases, req, runGroup } from './support';

/**
 * Hostile input to the admin JSON endpoints (shows, theme, the featured toggle of tracks):
 * see ./support.ts. One test: the show, theme and track it targets must come out of all its
 * groups unchanged.
 */

let r: Roles;
const sent: Count = { cases: 0 };
test.beforeAll(async () => {
  r = await roles();
});
test.afterAll(async () => {
  await disposeRoles(r);
  console.log(`[hostile-input/admin-json] ${sent.cases} hostile cases sent`);
  sent.cases = 0;
});

test('hostile input: admin JSON endpoints (shows, theme, featured toggle)', async () => {
  const showValid = (m: string) => ({
    title: `Show ${m}`,
    venue: `Venue ${m}`,
    location: 'Asbury Park, NJ',
    date: '2030-05-01',
    time: '8:00 PM',
    ticketUrl: 'https://tickets.example.com/x',
    description: `About ${m}`,
  });
  // An existing show to PUT to; it must come out unchanged.
  const created = await r.admin.post('/api/admin/shows', {
    data: showValid(`target${unique()}`),
    headers: SAME_ORIGIN,
  });
  expect(created.status()).toBe(201);
  const show = (await created.json()) as { id: number };
  const themeBefore = await (await r.admin.get('/api/admin/theme')).json();
  const tracks = (await (await r.anon.get('/api/tracks')).json()) as {
    id: number;
    featured: boolean;
  }[];
  // The oldest track is seeded: the newest may be another test's, deleted meanwhile.
  const track = tracks.at(-1)!;
  const adminCases = (cases: Case[]) => cases.map((c) => ({ ...c, role: 'admin' as const }));

  await runGroup(r, sent, 'admin json', [
    {
      endpoint: 'POST /api/admin/shows',
      cases: adminCases([
        ...jsonCases(
          'post',
          '/api/admin/shows',
          ['title', 'venue', 'location', 'date', 'time', 'description'],
          showValid,
          (b) => ({ ...b, date: '2030-02-30' }),
        ),
        {
          name: 'ticketUrl javascript:',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/admin/shows', {
              data: { ...showValid(m), ticketUrl: 'javascript:alert(1)' },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'ticketUrl data:',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/admin/shows', {
              data: { ...showValid(m), ticketUrl: 'data:text/html,<script>alert(1)</script>' },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'date as {"$gt": ""}',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/admin/shows', {
              data: { ...showValid(m), date: { $gt: '' } },
              headers: SAME_ORIGIN,
            }),
        },
      ]),
    },
    {
      endpoint: 'PUT /api/admin/shows/:id',
      cases: adminCases(
        jsonCases(
          'put',
          `/api/admin/shows/${show.id}`,
          ['title', 'venue', 'location', 'date', 'time'],
          showValid,
          (b) => ({ ...b, time: '' }),
        ),
      ),
    },
    {
      endpoint: 'POST /api/admin/theme',
      cases: adminCases([
        ...jsonCases(
          'post',
          '/api/admin/theme',
          ['primary', 'variant', 'appearance', 'headerFont', 'bodyFont', 'heroTitle'],
          (m) => ({ ...(themeBefore as Record<string, unknown>), heroTitle: m }),
          (b) => ({ ...b, radius: 7 }),
        ),
        {
          name: 'primary colour with CSS injection',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/admin/theme', {
              data: { ...(themeBefore as object), primary: `red;}</style><script>${m}</script>` },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'font outside the list',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/admin/theme', {
              data: { ...(themeBefore as object), headerFont: `Comic ${m}` },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'radius as a string of digits 1e9',
          send: (ctx, m) =>
            req(ctx, 'post', '/api/admin/theme', {
              data: { ...(themeBefore as object), radius: '1e9', heroTitle: m },
              headers: SAME_ORIGIN,
            }),
        },
      ]),
    },
    {
      endpoint: 'PUT /api/admin/tracks/:id (JSON featured)',
      cases: adminCases([
        {
          name: 'featured as a string',
          send: (ctx) =>
            req(ctx, 'put', `/api/admin/tracks/${track.id}`, {
              data: { featured: 'yes' },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'featured as {"$ne": false}',
          send: (ctx) =>
            req(ctx, 'put', `/api/admin/tracks/${track.id}`, {
              data: { featured: { $ne: false } },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'featured missing',
          send: (ctx, m) =>
            req(ctx, 'put', `/api/admin/tracks/${track.id}`, {
              data: { title: m },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'featured null',
          send: (ctx) =>
            req(ctx, 'put', `/api/admin/tracks/${track.id}`, {
              data: { featured: null },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'featured as a number',
          send: (ctx) =>
            req(ctx, 'put', `/api/admin/tracks/${track.id}`, {
              data: { featured: 1 },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'a top-level array',
          send: (ctx) =>
            req(ctx, 'put', `/api/admin/tracks/${track.id}`, {
              data: [{ featured: true }],
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'malformed JSON',
          send: (ctx) =>
            req(ctx, 'put', `/api/admin/tracks/${track.id}`, {
              data: '{"featured": tru',
              headers: { ...SAME_ORIGIN, 'Content-Type': 'application/json' },
            }),
        },
        {
          name: 'text/plain',
          send: (ctx) =>
            req(ctx, 'put', `/api/admin/tracks/${track.id}`, {
              data: '{"featured": true}',
              headers: { ...SAME_ORIGIN, 'Content-Type': 'text/plain' },
            }),
        },
        {
          name: '1 MB body',
          send: (ctx, m) =>
            req(ctx, 'put', `/api/admin/tracks/${track.id}`, {
              data: { featured: true, pad: big(m) },
              headers: SAME_ORIGIN,
            }),
        },
        {
          name: 'unknown track id 999999',
          send: (ctx) =>
            req(ctx, 'put', '/api/admin/tracks/999999', {
              data: { featured: true },
              headers: SAME_ORIGIN,
            }),
        },
      ]),
    },
  ]);

  // The show and the theme are as they were.
  const shows = (await (await r.anon.get('/api/shows')).json()) as { id: number; title: string }[];
  expect(shows.find((s) => s.id === show.id)?.title).toMatch(/^Show target/);
  expect(await (await r.admin.get('/api/admin/theme')).json()).toEqual(themeBefore);
  const tracksAfter = (await (await r.anon.get('/api/tracks')).json()) as {
    id: number;
    featured: boolean;
  }[];
  expect(tracksAfter.find((t) => t.id === track.id)?.featured).toBe(track.featured);
  await r.admin.delete(`/api/admin/shows/${show.id}`, { headers: SAME_ORIGIN });
});
