import { sign, verify } from '~/platform/signing.server';
import { PLAY_TOKEN_TTL_MS } from '~/types/constants';
import { siteToday } from '~/utils/time';

import { clientHash, type CountedRequest } from './analytics.server';

/**
 * What a play report must carry to be counted (decisions 024 and 038, issue 38): a token the
 * server issued to the same client, recently.
 *
 * - The site's player asks `GET /api/plays/token` (same origin only: no CORS header, so another
 *   site's page cannot read one for its visitors); the embed page writes one into itself, with
 *   the host of the site that framed it (from its request's `Referer`), or none.
 * - A token is `host.issuedAt.signature`: an HMAC of the session secret over the host, the time
 *   and the client's pseudonym of that day (the statistics' hash of address and user agent,
 *   decision 024), which is not in the token: `POST /api/plays` recomputes it from its own
 *   request, so a token works only for the client it was issued to, for PLAY_TOKEN_TTL_MS.
 * - Signed for the `play-token` purpose of platform/signing (first secret signs, each verifies).
 *   Tokens issued before decision 049 (bare secret, the salt of then) verify too: a player
 *   keeps its token five hours, so those are gone six hours after the release that changed it.
 *
 * What a determined forger can still do (as Plausible says of its own counts): from one address
 * and user agent, count one play per track in 30 minutes, and credit it to any host by asking
 * for an embed page with a made-up `Referer` — exactly what one real listener on one embedding
 * site can do. More takes more addresses. Plays are a signal, not an audit.
 */
const HOST = /^[a-z0-9.-]{1,200}(:\d{1,5})?$|^\[[0-9a-f:.]{2,60}\](:\d{1,5})?$/;

const MAC_LENGTH = 32;
const message = (payload: string, client: string) => `play|${payload}|${client}`;

/** The client's pseudonym on the (site) day a token was issued. */
const clientAt = (request: CountedRequest, issued: number, legacy = false) =>
  clientHash(request, siteToday(new Date(issued)), { legacy });

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

/** A token for this client's plays; `host`: the site that embedded the player, if any. */
export function playToken(request: CountedRequest, host: string | null, now = Date.now()): string {
  const payload = `${host ?? ''}.${now.toString(36)}`;
  const mac = sign('play-token', message(payload, clientAt(request, now)), { length: MAC_LENGTH });
  return `${payload}.${mac}`;
}

/**
 * What a token vouches for when `request` comes from the client it was issued to, within its
 * life: `{ host }` (null for a play on the site itself). Null for anything else (forged,
 * altered, expired, another client's, not a token).
 */
export function verifyPlayToken(
  token: unknown,
  request: CountedRequest,
  now = Date.now(),
): { host: string | null } | null {
  if (typeof token !== 'string' || token.length > 300) return null;
  const last = token.lastIndexOf('.');
  const payload = token.slice(0, last);
  const at = payload.lastIndexOf('.');
  if (last < 0 || at < 0) return null;
  const host = payload.slice(0, at);
  const issued = Number.parseInt(payload.slice(at + 1), 36);
  if (!Number.isFinite(issued) || issued > now + 60_000 || now - issued > PLAY_TOKEN_TTL_MS)
    return null;
  if (host !== '' && !HOST.test(host)) return null;
  const valid = verify(
    'play-token',
    message(payload, clientAt(request, issued)),
    token.slice(last + 1),
    {
      length: MAC_LENGTH,
      legacyMessage: message(payload, clientAt(request, issued, true)),
    },
  );
  return valid ? { host: host || null } : null;
}
