import { commitSession, getSession } from './session-storage.server';

/** How often a logged-in visitor's session is pushed 30 days further (sliding expiry). */
export const SESSION_REFRESH_INTERVAL_MS = 24 * 60 * 60 * 1000;

/**
 * Sliding sessions, cheaply: at most once a day per session, re-commit it, which moves
 * its row's `expiresAt` 30 days ahead and re-sends the cookie with a fresh Max-Age.
 * Returns the Set-Cookie headers to add to the answer, or null (nothing to do).
 * Called by the root loader.
 */
export async function sessionRefreshHeaders(
  request: Request,
  now = Date.now(),
): Promise<Headers | null> {
  if (!request.headers.get('Cookie')?.includes('__session=')) return null;
  const session = await getSession(request);
  if (!session.id || typeof session.get('userId') !== 'number') return null;
  const last = session.get('refreshedAt');
  if (typeof last === 'number' && now - last < SESSION_REFRESH_INTERVAL_MS) return null;
  session.set('refreshedAt', now);
  return new Headers({ 'Set-Cookie': await commitSession(session) });
}
