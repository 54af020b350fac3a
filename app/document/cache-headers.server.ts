/**
 * HTTP caching for public answers.
 *
 * Visitors without a session see the same public pages and /api answers, so a shared cache (a CDN
 * or reverse proxy in front of the site) may keep them for 30 s and serve them stale for 60 s
 * more while it revalidates. Browsers always revalidate (`max-age=0`), so an admin's change is
 * visible to the admin at once and to everyone within the shared lifetime. A request carrying
 * the session (or a flash-toast) cookie gets `private, no-store`: personalised HTML (the header's
 * user menu, a toast) must never land in a shared cache. `Vary: Cookie` tells caches to key on it.
 *
 * Inside the server, the page cache (page-cache.server.ts, decision 039) keeps exactly these
 * public answers, and only while the data version says nothing they show has changed.
 */
import { isNegotiatedPath, varyWithAccept } from './negotiation.server';

export const PUBLIC_CACHE_CONTROL = 'public, max-age=0, s-maxage=30, stale-while-revalidate=60';
export const PRIVATE_CACHE_CONTROL = 'private, no-store';

const PERSONAL_COOKIES = ['__session', '__toast'];

/** Whether the request carries a cookie that makes the answer personal. */
export function hasPersonalCookie(request: Request): boolean {
  const cookie = request.headers.get('Cookie');
  if (!cookie) return false;
  return cookie
    .split(';')
    .map((part) => part.trim().split('=')[0]?.trim())
    .some((name) => name !== undefined && PERSONAL_COOKIES.includes(name));
}

/** `Cache-Control` + `Vary` for a public GET (loader `headers`, or `apiJson(…, { headers })`). */
export function publicCacheHeaders(request: Request): Record<string, string> {
  return {
    'Cache-Control': hasPersonalCookie(request) ? PRIVATE_CACHE_CONTROL : PUBLIC_CACHE_CONTROL,
    Vary: 'Cookie',
  };
}

/**
 * What is not a public page: the back office, accounts, the API, pages reached by a personal
 * link, and the paths that answer no page at all. Their documents are never shared-cached, and
 * visits to them are not counted (services/analytics.server.ts).
 */
const PRIVATE_PREFIXES = [
  '/admin',
  '/account',
  '/auth',
  '/api',
  '/logout',
  '/healthz',
  '/uploads',
  '/unsubscribe',
  '/newsletter/confirm',
];

export function isPrivatePath(pathname: string): boolean {
  return PRIVATE_PREFIXES.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

/**
 * For the document (and single-fetch data) responses of the page routes, called from
 * entry.server: a successful GET of a public page, for a visitor without a personal cookie and
 * with no cookie being set, gets the public policy; everything else that has no policy of its own
 * gets `private, no-store`. A Cache-Control a route set itself is kept.
 */
export function applyDocumentCacheHeaders(
  request: Request,
  headers: Headers,
  status: number,
): void {
  if (!headers.has('Vary')) headers.set('Vary', 'Cookie');
  else if (!/\bcookie\b/i.test(headers.get('Vary') ?? '')) headers.append('Vary', 'Cookie');
  // A page with an ActivityPub twin on its URL (decision 054): caches must key on Accept too.
  if (isNegotiatedPath(new URL(request.url).pathname))
    headers.set('Vary', varyWithAccept(headers.get('Vary')));
  if (headers.has('Cache-Control')) {
    // A route's public policy must still yield to a personal request or a Set-Cookie.
    if (
      /\bpublic\b/.test(headers.get('Cache-Control') ?? '') &&
      !isShareable(request, headers, status)
    ) {
      headers.set('Cache-Control', PRIVATE_CACHE_CONTROL);
    }
    return;
  }
  headers.set(
    'Cache-Control',
    isShareable(request, headers, status) ? PUBLIC_CACHE_CONTROL : PRIVATE_CACHE_CONTROL,
  );
}

function isShareable(request: Request, headers: Headers, status: number): boolean {
  const method = request.method.toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (status !== 200) return false;
  if (headers.has('Set-Cookie')) return false;
  if (hasPersonalCookie(request)) return false;
  const pathname = new URL(request.url).pathname.replace(/\.data$/, '') || '/';
  return !isPrivatePath(pathname === '/_root' ? '/' : pathname);
}
