import type { IncomingMessage, ServerResponse } from 'node:http';

import { env } from './env.server';
import { loggablePath } from './logger.server';
import { logWarning, type Next, writeErrorAnswer } from './request-tracking.server';

/**
 * The trust boundary (docs/decisions/028-trust-boundary.md): what every request must pass
 * before a route runs. Our server module (server/http-server.ts) mounts `guardRequest` right
 * after `trackRequest`, so page routes, `/api` resource routes and static files can rely on it:
 *
 * 1. **Allowed hosts.** The site answers only for the hosts it serves: SITE_URL's host, the
 *    loopback names and ALLOWED_HOSTS. Any other `Host` (or, with TRUST_PROXY, any other
 *    `X-Forwarded-Host`) is a 400, as Django's ALLOWED_HOSTS and Rails' host authorisation
 *    answer. `/healthz` answers whatever the host (load balancers probe by IP).
 * 2. **Same origin for every state change.** A request that is not GET, HEAD or OPTIONS is a
 *    403 when the browser says it comes from another site: an `Origin` whose host is not the
 *    (allowed) host the request addressed, or, without `Origin`, `Sec-Fetch-Site: cross-site`
 *    or `same-site`. Clients that send neither
 *    (scripts, apps) pass: they carry no visitor's cookies. Browsers send these headers on
 *    their own form posts, so forms without JavaScript keep working.
 *
 * Links that leave the site (emails, feeds, canonical URLs) never come from the request: see
 * `siteOrigin` in app/platform/site-origin.server.ts.
 */

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/** A host pattern of ALLOWED_HOSTS: `example.com`, or `.example.com` for it and its subdomains. */
function matchesPattern(hostname: string, pattern: string): boolean {
  if (pattern.startsWith('.')) return hostname === pattern.slice(1) || hostname.endsWith(pattern);
  return hostname === pattern;
}

/** The host names of a comma-separated ALLOWED_HOSTS value, lower-cased, ports dropped. */
export function parseAllowedHosts(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
}

/** The hostname of a `Host` header value (`example.com:3000`, `[::1]:3000`), or null. */
export function hostnameOf(hostHeader: string | undefined): string | null {
  // A path, credentials, a query or spaces make no host (the URL parser would accept some).
  if (!hostHeader || hostHeader.length > 255 || /[\s/\\@?#]/.test(hostHeader)) return null;
  try {
    return new URL(`http://${hostHeader}`).hostname;
  } catch {
    return null;
  }
}

export type TrustConfig = { siteUrl: string; allowedHosts: readonly string[] };

const configFromEnv = (): TrustConfig => ({
  siteUrl: env.SITE_URL,
  allowedHosts: parseAllowedHosts(env.ALLOWED_HOSTS),
});

/** True when the site answers for this host name. */
export function isAllowedHostname(hostname: string, config: TrustConfig = configFromEnv()) {
  if (LOOPBACK.includes(hostname)) return true;
  if (config.siteUrl && new URL(config.siteUrl).hostname === hostname) return true;
  return config.allowedHosts.some((pattern) => matchesPattern(hostname, pattern));
}

function originOf(value: string): URL | null {
  if (value === 'null') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * True when a state-changing request may go on. `host` is the host the client addressed
 * (already an allowed one). An `Origin` passes only when it names that same host, port
 * included (behind a TLS-terminating proxy the scheme may differ): the rule Remix's own guard
 * applies to page actions, so a request this lets through is never one Remix aborts.
 */
export function isSameOrigin(
  headers: { origin?: string; secFetchSite?: string },
  host: string,
): boolean {
  if (headers.origin !== undefined) {
    return originOf(headers.origin)?.host === host.toLowerCase();
  }
  return headers.secFetchSite !== 'cross-site' && headers.secFetchSite !== 'same-site';
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The one exception to rule 2 (decision 038): the play beacon of an embed, which runs in a
 * frame sandboxed without `allow-same-origin` and so posts with `Origin: null`. Only
 * `POST /api/plays` (it only counts: it reads no cookie, changes no content, answers 204), only
 * with exactly `Origin: null`; any other origin there is refused as everywhere.
 */
export function isOpaqueOriginBeacon(method: string, path: string, origin: string | undefined) {
  return method === 'POST' && path === '/api/plays' && origin === 'null';
}

/** Paths answered whatever the Host: the load balancer's health check. */
const ANY_HOST_PATHS = new Set(['/healthz']);

const header = (request: IncomingMessage, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

function refuse(
  request: IncomingMessage,
  response: ServerResponse,
  status: 400 | 403,
  message: string,
): void {
  writeErrorAnswer(response, loggablePath(request.url), status, message);
}

/** The server's second middleware (after `trackRequest`): see the top of this file. */
export function guardRequest(request: IncomingMessage, response: ServerResponse, next: Next): void {
  const path = loggablePath(request.url);
  const host = header(request, 'host') ?? '';
  // X-Forwarded-Host is a proxy's word, believed only with TRUST_PROXY; a client's own is
  // dropped, so that Remix (which prefers it to Host) never reads one we did not check.
  if (!env.TRUST_PROXY) delete request.headers['x-forwarded-host'];
  const forwarded = header(request, 'x-forwarded-host')?.split(',')[0]?.trim() || undefined;
  if (!ANY_HOST_PATHS.has(path)) {
    for (const value of forwarded === undefined ? [host] : [host, forwarded]) {
      const hostname = hostnameOf(value);
      if (hostname && isAllowedHostname(hostname)) continue;
      logWarning(request, 'host refused', {
        host: value.slice(0, 100),
        hint: 'the site answers only for the host of SITE_URL, localhost and ALLOWED_HOSTS',
      });
      refuse(request, response, 400, 'Bad Request: unknown host');
      return;
    }
  }
  const method = (request.method ?? 'GET').toUpperCase();
  if (!SAFE_METHODS.has(method)) {
    const origin = header(request, 'origin');
    const secFetchSite = header(request, 'sec-fetch-site');
    if (
      !isSameOrigin({ origin, secFetchSite }, forwarded ?? host) &&
      !isOpaqueOriginBeacon(method, path, origin)
    ) {
      refuse(request, response, 403, 'Cross-origin request refused');
      return;
    }
  }
  next();
}
