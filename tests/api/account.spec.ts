import { expect, request, test } from '@playwright/test';

import {
  baseURL,
  CROSS_ORIGIN,
  expectEntity,
  expectError,
  expectFieldErrors,
  expectJson,
  SAME_ORIGIN,
  unique,
  useRoles,
} from './helpers';

const r = useRoles();

/** A fresh cookie jar: each test that logs in or out uses its own. */
async function fresh() {
  return request.newContext({ baseURL });
}

test.describe('GET /api/user', () => {
  test('401 with { error } without a session', async () => {
    await expectError(await r.anon.get('/api/user'), 401, 'Not authenticated');
  });

  test('the user { id, username, isAdmin } with a session, nothing else', async () => {
    const user = expectEntity(await expectJson(await r.user.get('/api/user'), 200), 'user');
    expect(user).toMatchObject({ username: 'api-user', isAdmin: false });
    const admin = expectEntity(await expectJson(await r.admin.get('/api/user'), 200), 'user');
    expect(admin).toMatchObject({ username: 'api-admin', isAdmin: true });
  });

  test('405 JSON for POST', async () => {
    const response = await r.anon.post('/api/user', { data: {}, headers: SAME_ORIGIN });
    await expectError(response, 405);
    expect(response.headers()['allow']).toBe('GET');
  });
});

test.describe('POST /api/register', () => {
  test('creates a plain user, starts a session and never honours isAdmin', async () => {
    const ctx = await fresh();
    const username = `reg-${unique()}`;
    const response = await ctx.post('/api/register', {
      data: { username, password: 'secret-123', isAdmin: true },
      headers: SAME_ORIGIN,
    });
    const user = expectEntity(await expectJson(response, 201), 'user');
    expect(user).toMatchObject({ username, isAdmin: false });
    expect(response.headers()['set-cookie']).toMatch(/__session=/);
    const me = await expectJson(await ctx.get('/api/user'), 200);
    expect(me).toEqual(user);
    await ctx.dispose();
  });

  test('accepts a urlencoded form body', async () => {
    const ctx = await fresh();
    const username = `regform-${unique()}`;
    const response = await ctx.post('/api/register', {
      form: { username, password: 'secret-123' },
      headers: SAME_ORIGIN,
    });
    expect(expectEntity(await expectJson(response, 201), 'user')).toMatchObject({ username });
    await ctx.dispose();
  });

  test('409 for a taken username', async () => {
    const response = await r.anon.post('/api/register', {
      data: { username: 'api-user', password: 'another-secret' },
      headers: SAME_ORIGIN,
    });
    await expectFieldErrors(response, { username: 'Username already exists' }, 409);
    const body = await response.json();
    expect(body.error).toBe('Username already exists');
  });

  test('400 with the form messages for a short username and password', async () => {
    const response = await r.anon.post('/api/register', {
      data: { username: 'ab', password: '12345' },
      headers: SAME_ORIGIN,
    });
    await expectFieldErrors(response, {
      username: 'Username must be at least 3 characters',
      password: 'Password must be at least 6 characters',
    });
  });

  test('400 when the fields are missing', async () => {
    const response = await r.anon.post('/api/register', { data: {}, headers: SAME_ORIGIN });
    await expectFieldErrors(response, { username: /at least 3/, password: /at least 6/ });
  });
});

test.describe('POST /api/login', () => {
  test('answers the user and sets the session cookie (JSON body)', async () => {
    const ctx = await fresh();
    const response = await ctx.post('/api/login', {
      data: { username: 'api-user', password: 'api-user-password-1' },
      headers: SAME_ORIGIN,
    });
    expect(expectEntity(await expectJson(response, 200), 'user')).toMatchObject({
      username: 'api-user',
      isAdmin: false,
    });
    expect(response.headers()['set-cookie']).toMatch(/__session=/);
    expect(response.headers()['set-cookie']).toMatch(/HttpOnly/i);
    await expectJson(await ctx.get('/api/user'), 200);
    await ctx.dispose();
  });

  test('accepts a form body', async () => {
    const ctx = await fresh();
    const response = await ctx.post('/api/login', {
      form: { username: 'api-user', password: 'api-user-password-1' },
      headers: SAME_ORIGIN,
    });
    await expectJson(response, 200);
    await ctx.dispose();
  });

  test('401 for a wrong password, without a session', async () => {
    const ctx = await fresh();
    const response = await ctx.post('/api/login', {
      data: { username: 'api-user', password: 'wrong-password' },
      headers: SAME_ORIGIN,
    });
    await expectError(response, 401, 'Invalid username or password');
    expect(response.headers()['set-cookie']).toBeUndefined();
    await expectError(await ctx.get('/api/user'), 401);
    await ctx.dispose();
  });

  test('401 with the same message for an unknown user', async () => {
    const response = await r.anon.post('/api/login', {
      data: { username: `nobody-${unique()}`, password: 'whatever-123' },
      headers: SAME_ORIGIN,
    });
    await expectError(response, 401, 'Invalid username or password');
  });

  test('400 with "Username is required" / "Password is required"', async () => {
    const response = await r.anon.post('/api/login', {
      data: { username: '  ', password: '' },
      headers: SAME_ORIGIN,
    });
    await expectFieldErrors(response, {
      username: 'Username is required',
      password: 'Password is required',
    });
  });

  test('400 for a body that is not an object', async () => {
    const response = await r.anon.post('/api/login', {
      headers: { ...SAME_ORIGIN, 'Content-Type': 'application/json' },
      data: Buffer.from('["api-user"]'),
    });
    await expectError(response, 400);
  });

  test('405 JSON for GET', async () => {
    const response = await r.anon.get('/api/login');
    await expectError(response, 405, 'Method Not Allowed');
    expect(response.headers()['allow']).toBe('POST');
  });
});

test.describe('POST /api/logout', () => {
  test('ends the session', async () => {
    const ctx = await fresh();
    await expectJson(
      await ctx.post('/api/login', {
        data: { username: 'api-user', password: 'api-user-password-1' },
        headers: SAME_ORIGIN,
      }),
      200,
    );
    const stolen = await ctx.storageState();
    expect(await expectJson(await ctx.post('/api/logout', { headers: SAME_ORIGIN }), 200)).toEqual({
      success: true,
    });
    await expectError(await ctx.get('/api/user'), 401);
    // The old cookie is dead on the server too, not only cleared in this jar.
    const replay = await request.newContext({ baseURL, storageState: stolen });
    await expectError(await replay.get('/api/user'), 401);
    await replay.dispose();
    await ctx.dispose();
  });

  test('is harmless without a session', async () => {
    expect(
      await expectJson(await r.anon.post('/api/logout', { headers: SAME_ORIGIN }), 200),
    ).toEqual({
      success: true,
    });
  });
});

test.describe('bodies and origins', () => {
  test('malformed JSON is a 400, not a 500', async () => {
    const response = await r.anon.post('/api/login', {
      headers: { ...SAME_ORIGIN, 'Content-Type': 'application/json' },
      data: Buffer.from('{"username": "api-user", '),
    });
    await expectError(response, 400, 'Malformed JSON body');
  });

  test('an empty JSON body is a 400', async () => {
    const response = await r.anon.post('/api/register', {
      headers: { ...SAME_ORIGIN, 'Content-Type': 'application/json' },
      data: Buffer.from(''),
    });
    await expectError(response, 400, 'Malformed JSON body');
  });

  test('a JSON body over 100 KB is a 413', async () => {
    const response = await r.anon.post('/api/login', {
      data: { username: 'api-user', password: 'x'.repeat(150 * 1024) },
      headers: SAME_ORIGIN,
    });
    await expectError(response, 413);
  });

  test('another content type is a 415', async () => {
    const response = await r.anon.post('/api/login', {
      headers: { ...SAME_ORIGIN, 'Content-Type': 'text/plain' },
      data: Buffer.from('username=api-user'),
    });
    await expectError(response, 415);
  });

  test('a cross-site Origin is refused with 403 before anything happens', async () => {
    const ctx = await fresh();
    const response = await ctx.post('/api/login', {
      data: { username: 'api-user', password: 'api-user-password-1' },
      headers: CROSS_ORIGIN,
    });
    await expectError(response, 403, 'Cross-origin request refused');
    expect(response.headers()['set-cookie']).toBeUndefined();
    await ctx.dispose();
  });

  test('Sec-Fetch-Site: cross-site is refused too; same-origin passes', async () => {
    await expectError(
      await r.anon.post('/api/logout', { headers: { 'Sec-Fetch-Site': 'cross-site' } }),
      403,
    );
    await expectJson(
      await r.anon.post('/api/logout', { headers: { 'Sec-Fetch-Site': 'same-origin' } }),
      200,
    );
  });

  test('a request without Origin or Sec-Fetch-Site (a script) passes', async () => {
    await expectJson(await r.anon.post('/api/logout'), 200);
  });
});

test.describe('unknown /api paths', () => {
  for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const) {
    test(`${method} /api/nope is a JSON 404`, async () => {
      const response = await r.anon.fetch('/api/nope/deeper', { method, headers: SAME_ORIGIN });
      await expectError(response, 404, 'Not found');
    });
  }

  test('/api itself is a JSON 404', async () => {
    await expectError(await r.anon.get('/api'), 404);
  });

  test('unknown /api/admin paths are guarded first (401, 403), then 404', async () => {
    await expectError(await r.anon.get('/api/admin/nope'), 401);
    await expectError(await r.user.get('/api/admin/nope'), 403);
    await expectError(await r.admin.get('/api/admin/nope'), 404);
  });
});
