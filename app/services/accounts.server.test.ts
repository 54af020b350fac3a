import { type EmbeddedMongo, startEmbeddedMongo } from '@night-shore/embedded-mongo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type * as Auth from '~/auth/auth.server';
import type * as Db from '~/platform/db.server';

import type * as Accounts from './accounts.server';

let store: EmbeddedMongo;
let db: typeof Db;
let accounts: typeof Accounts;
let auth: typeof Auth;

beforeAll(async () => {
  process.env.SEED = 'false';
  store = await startEmbeddedMongo();
  db = await import('~/platform/db.server');
  await db.connectDb({ uri: store.uri, dbName: 'accounts-test' });
  const limits = await import('~/platform/rate-limit.server');
  limits.configureRateLimits({
    'login-ip': { points: 50, durationSeconds: 60 },
    'login-user': { points: 3, durationSeconds: 60 },
    register: { points: 2, durationSeconds: 60 },
  });
  accounts = await import('./accounts.server');
  auth = await import('~/auth/auth.server');
});

afterAll(async () => {
  await db.disconnectDb();
  await store.stop();
});

const from = (ip: string) =>
  new Request('http://localhost/auth', {
    method: 'POST',
    headers: { 'x-night-shore-client-ip': ip },
  });
const cookieOf = (headers: Headers) => (headers.get('Set-Cookie') ?? '').split(';')[0]!;

// Every login and registration hashes with scrypt (about 100 ms, more on a busy machine).
describe('accounts service', { timeout: 90_000 }, () => {
  it('registers a plain user with a session, and refuses a taken name with UsernameTakenError', async () => {
    const { user, headers } = await accounts.register(from('10.1.0.1'), {
      username: 'Marina',
      password: 'secret-123',
    });
    expect(user).toMatchObject({ username: 'Marina', isAdmin: false });
    const cookie = cookieOf(headers);
    expect(
      await auth.getUser(new Request('http://localhost/', { headers: { Cookie: cookie } })),
    ).toMatchObject({ id: user.id });
    const taken = accounts.register(from('10.1.0.2'), { username: 'marina', password: 'x-123456' });
    await expect(taken).rejects.toBeInstanceOf(accounts.UsernameTakenError);
    await expect(taken).rejects.toThrow('Username already exists');
  });

  it('logs in, or throws InvalidLoginError with the one message for both failures', async () => {
    await accounts.register(from('10.1.0.3'), { username: 'Tide', password: 'secret-123' });
    const ok = await accounts.logIn(from('10.1.0.3'), { username: 'tide', password: 'secret-123' });
    expect(ok.user.username).toBe('Tide');
    for (const credentials of [
      { username: 'Tide', password: 'wrong-pass' },
      { username: 'nobody-here', password: 'secret-123' },
    ]) {
      const failed = accounts.logIn(from('10.1.0.3'), credentials);
      await expect(failed).rejects.toBeInstanceOf(accounts.InvalidLoginError);
      await expect(failed).rejects.toThrow('Invalid username or password');
    }
  });

  it('counts attempts: TooManyAttemptsError carries Retry-After; a success resets the username count', async () => {
    const r = from('10.1.0.4');
    await accounts.register(r, { username: 'Boardwalk', password: 'secret-123' });
    const wrong = { username: 'Boardwalk', password: 'nope-nope' };
    await expect(accounts.logIn(r, wrong)).rejects.toBeInstanceOf(accounts.InvalidLoginError);
    await expect(accounts.logIn(r, wrong)).rejects.toBeInstanceOf(accounts.InvalidLoginError);
    await accounts.logIn(r, { username: 'Boardwalk', password: 'secret-123' });
    await expect(accounts.logIn(r, wrong)).rejects.toBeInstanceOf(accounts.InvalidLoginError);
    await expect(accounts.logIn(r, wrong)).rejects.toBeInstanceOf(accounts.InvalidLoginError);
    await expect(accounts.logIn(r, wrong)).rejects.toBeInstanceOf(accounts.InvalidLoginError);
    const refused = await accounts.logIn(r, wrong).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(accounts.TooManyAttemptsError);
    expect(accounts.isAccountRefusal(refused)).toBe(true);
    const tooMany = refused as InstanceType<typeof accounts.TooManyAttemptsError>;
    expect(tooMany.message).toMatch(/^Too many attempts/);
    expect(tooMany.headers['Retry-After']).toBe(String(tooMany.retryAfterSeconds));
    expect(accounts.isAccountRefusal(new Error('database down'))).toBe(false);
  });
});
