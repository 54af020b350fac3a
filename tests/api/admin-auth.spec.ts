import { expect, test } from '@playwright/test';

import {
  CROSS_ORIGIN,
  disposeRoles,
  expectError,
  expectJson,
  type Roles,
  roles,
  SAME_ORIGIN,
} from './helpers';

let r: Roles;
test.beforeAll(async () => {
  r = await roles();
});
test.afterAll(async () => {
  await disposeRoles(r);
});

type Call = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** What an admin gets for this harmless probe (an empty body, an unknown id). */
  admin: number;
};

/** Every admin endpoint (docs/api.md). Ids are unknown (999999) so nothing is changed. */
const CALLS: Call[] = [
  { method: 'GET', path: '/api/admin/subscribers', admin: 200 },
  { method: 'DELETE', path: '/api/admin/subscribers/999999', admin: 404 },
  { method: 'GET', path: '/api/admin/newsletter', admin: 200 },
  { method: 'POST', path: '/api/admin/newsletter', admin: 400 },
  { method: 'GET', path: '/api/admin/newsletter/999999', admin: 404 },
  { method: 'GET', path: '/api/admin/messages', admin: 200 },
  { method: 'GET', path: '/api/admin/stats?days=7', admin: 200 },
  { method: 'DELETE', path: '/api/admin/messages/999999', admin: 404 },
  { method: 'GET', path: '/api/admin/theme', admin: 200 },
  { method: 'POST', path: '/api/admin/theme', admin: 400 },
  { method: 'POST', path: '/api/admin/tracks', admin: 415 },
  { method: 'PUT', path: '/api/admin/tracks/999999', admin: 404 },
  { method: 'DELETE', path: '/api/admin/tracks/999999', admin: 404 },
  { method: 'POST', path: '/api/admin/tracks/randomize-featured', admin: 200 },
  { method: 'POST', path: '/api/admin/gallery', admin: 415 },
  { method: 'PUT', path: '/api/admin/gallery/999999', admin: 404 },
  { method: 'DELETE', path: '/api/admin/gallery/999999', admin: 404 },
  { method: 'POST', path: '/api/admin/blog', admin: 415 },
  { method: 'PUT', path: '/api/admin/blog/999999', admin: 404 },
  { method: 'DELETE', path: '/api/admin/blog/999999', admin: 404 },
  { method: 'POST', path: '/api/admin/shows', admin: 400 },
  { method: 'PUT', path: '/api/admin/shows/999999', admin: 404 },
  { method: 'DELETE', path: '/api/admin/shows/999999', admin: 404 },
];

for (const call of CALLS) {
  test.describe(`${call.method} ${call.path}`, () => {
    // randomize-featured changes which track is featured; tracks.spec.ts tests it with the admin.
    const probeAsAdmin = !call.path.endsWith('randomize-featured');

    test('anonymous: 401 { error }', async () => {
      const response = await r.anon.fetch(call.path, {
        method: call.method,
        headers: { ...SAME_ORIGIN, 'Content-Type': 'application/json' },
        // Malformed on purpose: the guard answers before the body is read.
        data:
          call.method === 'GET' || call.method === 'DELETE'
            ? undefined
            : Buffer.from('{"broken": '),
      });
      await expectError(response, 401, 'Authentication required');
    });

    test('plain user: 403 { error }', async () => {
      const response = await r.user.fetch(call.path, {
        method: call.method,
        headers: { ...SAME_ORIGIN, 'Content-Type': 'application/json' },
        data:
          call.method === 'GET' || call.method === 'DELETE'
            ? undefined
            : Buffer.from('{"broken": '),
      });
      await expectError(response, 403, 'Administrator access required');
    });

    if (probeAsAdmin) {
      test(`admin: past the guard (${call.admin})`, async () => {
        const response = await r.admin.fetch(call.path, {
          method: call.method,
          headers: SAME_ORIGIN,
          data: call.admin === 400 ? {} : undefined,
        });
        await expectJson(response, call.admin);
      });
    }

    if (call.method !== 'GET') {
      test('admin from another site: 403', async () => {
        const response = await r.admin.fetch(call.path, {
          method: call.method,
          headers: CROSS_ORIGIN,
        });
        await expectError(response, 403, 'Cross-origin request refused');
      });
    }
  });
}

test('methods an admin endpoint does not take are a JSON 405 with Allow', async () => {
  const cases: [string, 'GET' | 'POST' | 'PATCH' | 'PUT', string][] = [
    ['/api/admin/subscribers', 'POST', 'GET'],
    ['/api/admin/subscribers/1', 'GET', 'DELETE'],
    ['/api/admin/newsletter', 'PUT', 'GET, POST'],
    ['/api/admin/newsletter/1', 'POST', 'GET'],
    ['/api/admin/tracks', 'GET', 'POST'],
    ['/api/admin/tracks/1', 'PATCH', 'PUT, DELETE'],
    ['/api/admin/theme', 'PUT', 'GET, POST'],
    ['/api/admin/shows/1', 'GET', 'PUT, DELETE'],
  ];
  for (const [path, method, allow] of cases) {
    const response = await r.admin.fetch(path, { method, headers: SAME_ORIGIN });
    await expectError(response, 405, 'Method Not Allowed');
    expect(response.headers()['allow'], `${method} ${path}`).toBe(allow);
  }
  // Anonymous callers learn nothing about methods: the guard answers first.
  await expectError(await r.anon.get('/api/admin/tracks'), 401);
});

test('non-numeric ids are 404', async () => {
  for (const path of [
    '/api/admin/tracks/abc',
    '/api/admin/gallery/1.5',
    '/api/admin/blog/-1',
    '/api/admin/shows/0',
    '/api/admin/subscribers/1e3',
    '/api/admin/messages/%20',
  ]) {
    const response = await r.admin.delete(path, { headers: SAME_ORIGIN });
    await expectError(response, 404);
  }
});
