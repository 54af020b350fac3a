import { json, redirect } from '@remix-run/node';

import { deleteSessionsOfUser } from '~/models/session.server';
import { getUserById } from '~/models/user.server';
import type { UserJSON } from '~/types/entities';
import type { Viewer } from '~/utils/access';

import { safeRedirect } from './safe-redirect';
import {
  commitSession,
  destroySession,
  getSession,
  sessionStorage,
} from './session-storage.server';

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

/**
 * Who is asking, for members-only tracks and posts: a member is anyone logged in whose account
 * still exists (administrators included).
 */
export async function getViewer(request: Request): Promise<Viewer> {
  return { member: (await getUser(request)) !== null };
}

/** The logged-in user, or null. */
export async function getUser(request: Request): Promise<UserJSON | null> {
  const userId = await getUserId(request);
  return userId === null ? null : getUserById(userId);
}

/**
 * The logged-in user of a request answered before Remix (`/uploads`, the tus endpoint), from
 * its `Cookie` header alone (the session store reads nothing else), or null.
 */
export function getUserOfCookie(cookie: string | null | undefined): Promise<UserJSON | null> {
  const headers = new Headers();
  if (cookie) headers.set('Cookie', cookie);
  return getUser(new Request('http://localhost/', { headers }));
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

/** /api routes of a member (favourites): 401 JSON without a session, before reading the body. */
export async function requireUserApi(request: Request): Promise<UserJSON> {
  const user = await getUser(request);
  if (!user) throw json({ error: 'Authentication required' }, { status: 401 });
  return user;
}

/** /api/admin/*: 401 without a session, 403 for a non-admin (before reading the body). */
export async function requireAdminApi(request: Request): Promise<UserJSON> {
  const user = await getUser(request);
  if (!user) throw json({ error: 'Authentication required' }, { status: 401 });
  if (!user.isAdmin) throw json({ error: 'Administrator access required' }, { status: 403 });
  return user;
}

export { deleteSessionsOfUser, safeRedirect };
