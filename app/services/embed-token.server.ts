import crypto from 'node:crypto';

import { env } from '~/platform/env.server';

/**
 * Who embedded a play (decision 038). The embed page learns the embedding site's host from
 * the `Referer` of its own request (host only) and writes it into the page with an HMAC of
 * the session secret: `host.issuedAt.signature`. The embed's play beacon sends the token
 * back; `/api/plays` counts the host only when the signature holds and the token is at most
 * TOKEN_TTL_MS old. A beacon cannot name a host it made up: it must first load an embed page
 * with that `Referer` (one request per token, a day's life), and each client still counts
 * once per track in 30 minutes, as every play does.
 */
export const TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

const HOST = /^[a-z0-9.-]{1,200}(:\d{1,5})?$|^\[[0-9a-f:.]{2,60}\](:\d{1,5})?$/;

const key = () => env.SESSION_SECRETS[0] ?? env.SESSION_SECRET ?? 'night-shore';

const sign = (payload: string) =>
  crypto.createHmac('sha256', key()).update(`embed|${payload}`).digest('base64url').slice(0, 32);

/** The host of a `Referer` when it names another site than ours; else null. */
export function embeddingHost(referer: string | null, ownHost: string): string | null {
  if (!referer) return null;
  try {
    const url = new URL(referer);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    const host = url.host.toLowerCase();
    return host && host !== ownHost.toLowerCase() && HOST.test(host) ? host : null;
  } catch {
    return null;
  }
}

/** The token an embed page carries for this host. */
export function embedToken(host: string, now = Date.now()): string {
  const payload = `${host}.${now.toString(36)}`;
  return `${payload}.${sign(payload)}`;
}

/** The host a token vouches for, or null (forged, altered, expired or not a token). */
export function verifyEmbedToken(token: unknown, now = Date.now()): string | null {
  if (typeof token !== 'string' || token.length > 300) return null;
  const last = token.lastIndexOf('.');
  const payload = token.slice(0, last);
  const signature = token.slice(last + 1);
  const at = payload.lastIndexOf('.');
  if (last < 0 || at < 0) return null;
  const host = payload.slice(0, at);
  const issued = Number.parseInt(payload.slice(at + 1), 36);
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  if (!Number.isFinite(issued) || issued > now + 60_000 || now - issued > TOKEN_TTL_MS) return null;
  return HOST.test(host) ? host : null;
}
