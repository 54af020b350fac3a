import { json, redirect } from '@remix-run/node';
import { Authenticator } from 'remix-auth';
import { FormStrategy } from 'remix-auth-form';
import { createUser, getUserById, verifyLogin } from '~/models/user.server';
import { deleteSessionsOfUser } from '~/models/session.server';
import type { UserJSON } from '~/types/entities';
import { LoginSchema, RegisterFields } from '~/schemas/auth';
import { commitSession, destroySession, getSession, sessionStorage } from './session.server';
import { safeRedirect } from './safe-redirect';

export const INVALID_LOGIN = 'Invalid username or password';

export class AuthError extends Error {}

/**
 * remix-auth with two form strategies: 'login' checks the credentials, 'register' creates
 * a plain user (never an admin, whatever the form says). Both return the user; the
 * caller starts the session with `createUserSession`.
 */
export const authenticator = new Authenticator<UserJSON>();

authenticator.use(
  new FormStrategy(async ({ form }) => {
    const parsed = LoginSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) throw new AuthError(INVALID_LOGIN);
    const user = await verifyLogin(parsed.data.username, parsed.data.password);
    if (!user) throw new AuthError(INVALID_LOGIN);
    return user;
  }),
  'login',
);

authenticator.use(
  new FormStrategy(async ({ form }) => {
    const parsed = RegisterFields.safeParse(Object.fromEntries(form));
    if (!parsed.success) throw new AuthError(parsed.error.issues[0]?.message ?? 'Invalid input');
    try {
      return await createUser({ username: parsed.data.username, password: parsed.data.password });
    } catch (error) {
      if (error instanceof Error && error.message === 'Username already exists')
        throw new AuthError(error.message);
      throw error;
    }
  }),
  'register',
);

/** Start a fresh session (new id) for this user; returns the Set-Cookie headers. */
export async function createUserSession(request: Request, user: UserJSON): Promise<Headers> {
  const old = await getSession(request);
  if (old.id) await destroySession(old);
  const session = await sessionStorage.getSession();
  session.set('userId', user.id);
  return new Headers({ 'Set-Cookie': await commitSession(session) });
}

/** End the session on the server and clear the cookie. */
export async function logoutHeaders(request: Request): Promise<Headers> {
  const session = await getSession(request);
  return new Headers({ 'Set-Cookie': await destroySession(session) });
}

export async function getUserId(request: Request): Promise<number | null> {
  const session = await getSession(request);
  const userId = session.get('userId');
  return typeof userId === 'number' ? userId : null;
}

/** The logged-in user, or null. */
export async function getUser(request: Request): Promise<UserJSON | null> {
  const userId = await getUserId(request);
  return userId === null ? null : getUserById(userId);
}

function currentPath(request: Request) {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

/** Pages: a logged-in user, or a redirect to /auth?redirectTo=… */
export async function requireUser(request: Request): Promise<UserJSON> {
  const user = await getUser(request);
  if (!user) throw redirect(`/auth?${new URLSearchParams({ redirectTo: currentPath(request) })}`);
  return user;
}

/** Pages: an admin; no session → /auth?redirectTo=…, a non-admin → /. */
export async function requireAdmin(request: Request): Promise<UserJSON> {
  const user = await requireUser(request);
  if (!user.isAdmin) throw redirect('/');
  return user;
}

/** /auth: logged-in users are sent home. */
export async function requireAnonymous(request: Request): Promise<void> {
  if (await getUser(request)) throw redirect('/');
}

/** /api/admin/*: 401 without a session, 403 for a non-admin (before reading the body). */
export async function requireAdminApi(request: Request): Promise<UserJSON> {
  const user = await getUser(request);
  if (!user) throw json({ error: 'Authentication required' }, { status: 401 });
  if (!user.isAdmin) throw json({ error: 'Administrator access required' }, { status: 403 });
  return user;
}

export { safeRedirect, deleteSessionsOfUser };
