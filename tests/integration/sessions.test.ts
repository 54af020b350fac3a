import { type EmbeddedMongo, startEmbeddedMongo } from '@night-shore/embedded-mongo';
import { createCookie } from '@remix-run/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type * as AuthModule from '../../app/auth/auth.server';
import type * as SessionRefreshModule from '../../app/auth/session-refresh.server';
import type * as SessionModule from '../../app/auth/session-storage.server';
import type * as SessionModelModule from '../../app/models/session.server';
import type * as UserModule from '../../app/models/user.server';
import type * as DbModule from '../../app/platform/db.server';

const NEW_SECRET = 'new-secret-0123456789abcdef';
const OLD_SECRET = 'old-secret-0123456789abcdef';

let store: EmbeddedMongo;
let db: typeof DbModule;
let sessions: typeof SessionModule;
let auth: typeof AuthModule;
let users: typeof UserModule;
let sessionModel: typeof SessionModelModule;
let refresh: typeof SessionRefreshModule;

beforeAll(async () => {
  // Rotation: the new secret signs, the old one still verifies.
  process.env.SESSION_SECRET = `${NEW_SECRET},${OLD_SECRET}`;
  process.env.SEED = 'false';
  store = await startEmbeddedMongo();
  db = await import('../../app/platform/db.server');
  await db.connectDb({ uri: store.uri, dbName: 'sessions-test' });
  sessions = await import('../../app/auth/session-storage.server');
  auth = await import('../../app/auth/auth.server');
  users = await import('../../app/models/user.server');
  sessionModel = await import('../../app/models/session.server');
  refresh = await import('../../app/auth/session-refresh.server');
});

afterAll(async () => {
  await db.disconnectDb();
  await store.stop();
});

const cookieOf = (headers: Headers) => (headers.get('Set-Cookie') ?? '').split(';')[0]!;
const requestWith = (cookie: string) =>
  new Request('http://localhost/', { headers: { Cookie: cookie } });

async function newUser(name: string) {
  return users.createUser({
    username: `${name}-${Math.random().toString(36).slice(2, 8)}`,
    password: 'secret-123',
  });
}

describe('sessions', () => {
  it('are signed with the first secret and still accepted when signed with an older one', async () => {
    const user = await newUser('rotate');
    const headers = await auth.createUserSession(new Request('http://localhost/'), user);
    const cookie = cookieOf(headers);
    await expect(auth.getUser(requestWith(cookie))).resolves.toMatchObject({ id: user.id });

    // The same session id signed with the old secret only (a cookie issued before rotation).
    const id = await sessions.sessionCookie.parse(cookie);
    expect(typeof id).toBe('string');
    const oldCookie = createCookie('__session', { secrets: [OLD_SECRET] });
    const signedWithOld = (await oldCookie.serialize(id)).split(';')[0]!;
    expect(signedWithOld).not.toBe(cookie);
    expect(await auth.getUser(requestWith(signedWithOld))).toMatchObject({ id: user.id });

    // A cookie signed with a secret we never had is ignored.
    const forged = (
      await createCookie('__session', { secrets: ['attacker-secret-0123456789'] }).serialize(id)
    ).split(';')[0]!;
    expect(await auth.getUser(requestWith(forged))).toBeNull();
  });

  it('logout deletes the session row, so a copied cookie no longer works', async () => {
    const user = await newUser('logout');
    const cookie = cookieOf(await auth.createUserSession(new Request('http://localhost/'), user));
    const id = (await sessions.sessionCookie.parse(cookie)) as string;
    expect(await sessionModel.SessionModel.countDocuments({ _id: id })).toBe(1);
    const out = await auth.logoutHeaders(requestWith(cookie));
    expect(out.get('Set-Cookie')).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
    expect(await sessionModel.SessionModel.countDocuments({ _id: id })).toBe(0);
    expect(await auth.getUser(requestWith(cookie))).toBeNull();
  });

  it('deleteSessionsOfUser ends every other session of the user', async () => {
    const user = await newUser('multi');
    const a = cookieOf(await auth.createUserSession(new Request('http://localhost/'), user));
    const b = cookieOf(await auth.createUserSession(new Request('http://localhost/'), user));
    const keepId = (await sessions.sessionCookie.parse(b)) as string;
    await auth.deleteSessionsOfUser(user.id, keepId);
    expect(await auth.getUser(requestWith(a))).toBeNull();
    expect(await auth.getUser(requestWith(b))).toMatchObject({ id: user.id });
  });

  it('slide: at most once a day the session is pushed 30 days ahead with a fresh cookie', async () => {
    const user = await newUser('slide');
    const cookie = cookieOf(await auth.createUserSession(new Request('http://localhost/'), user));
    const id = (await sessions.sessionCookie.parse(cookie)) as string;
    // Pretend the session is 10 days old.
    const tenDaysAgo = Date.now() - 10 * 86_400_000;
    await sessionModel.SessionModel.updateOne(
      { _id: id },
      { $set: { expiresAt: new Date(tenDaysAgo + sessions.SESSION_MAX_AGE * 1000) } },
    );
    const first = await refresh.sessionRefreshHeaders(requestWith(cookie));
    expect(first?.get('Set-Cookie')).toMatch(new RegExp(`Max-Age=${sessions.SESSION_MAX_AGE}`));
    const doc = await sessionModel.SessionModel.findById(id).lean();
    expect(doc!.expiresAt.getTime()).toBeGreaterThan(
      Date.now() + (sessions.SESSION_MAX_AGE - 60) * 1000,
    );
    // Refreshed just now: nothing to do until tomorrow.
    expect(await refresh.sessionRefreshHeaders(requestWith(cookie))).toBeNull();
    expect(
      await refresh.sessionRefreshHeaders(requestWith(cookie), Date.now() + 25 * 3_600_000),
    ).not.toBeNull();
    // Anonymous visitors: never.
    expect(await refresh.sessionRefreshHeaders(new Request('http://localhost/'))).toBeNull();
  });

  it('an expired session is refused and removed', async () => {
    const user = await newUser('expired');
    const cookie = cookieOf(await auth.createUserSession(new Request('http://localhost/'), user));
    const id = (await sessions.sessionCookie.parse(cookie)) as string;
    await sessionModel.SessionModel.updateOne(
      { _id: id },
      { $set: { expiresAt: new Date(Date.now() - 1000) } },
    );
    expect(await auth.getUser(requestWith(cookie))).toBeNull();
    expect(await sessionModel.SessionModel.countDocuments({ _id: id })).toBe(0);
  });
});
