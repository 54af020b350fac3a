import type { HeadersFunction } from '@remix-run/node';
import mongoose from 'mongoose';
import { RateLimiterMemory, RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';

import { env } from './env.server';
import { processSingleton } from './process-state.server';
import { CLIENT_IP_HEADER } from './request-tracking.server';

/**
 * Abuse limits on the endpoints bots love: login (per client address, and per address +
 * username), register, contact and subscribe (per client address); and on the account's
 * email verification links (per account and per email address, decision 030).
 *
 * Counters live in the database (collection `rate_limits`, through rate-limiter-flexible's
 * RateLimiterMongo on the mongoose connection), so they hold across restarts and across
 * instances sharing a MongoDB; if the database cannot answer, an in-memory limiter with
 * the same rules takes over ("insurance"), so a store hiccup never opens the gate.
 *
 * The client address comes from the request tracker (socket address, or the last
 * X-Forwarded-For hop with TRUST_PROXY=true). See docs/decisions/008-request-tracking-and-abuse-limits.md.
 */

export type LimitKind =
  | 'login-ip'
  | 'login-user'
  | 'register'
  | 'contact'
  | 'subscribe'
  | 'verify-email-account'
  | 'verify-email-address'
  | 'fediverse-host';

export type LimitRule = { points: number; durationSeconds: number };

export const RATE_LIMIT_COLLECTION = 'rate_limits';

function defaultRules(): Record<LimitKind, LimitRule> {
  const durationSeconds = env.RATE_LIMIT_WINDOW_SECONDS;
  return {
    'login-ip': { points: env.RATE_LIMIT_LOGIN_PER_IP, durationSeconds },
    'login-user': { points: env.RATE_LIMIT_LOGIN_PER_USER, durationSeconds },
    register: { points: env.RATE_LIMIT_REGISTER_PER_IP, durationSeconds },
    contact: { points: env.RATE_LIMIT_CONTACT_PER_IP, durationSeconds },
    subscribe: { points: env.RATE_LIMIT_SUBSCRIBE_PER_IP, durationSeconds },
    // Verification emails: 3 an hour from one account, and 3 an hour to one address.
    'verify-email-account': { points: 3, durationSeconds: 60 * 60 },
    'verify-email-address': { points: 3, durationSeconds: 60 * 60 },
    // Posts to the fediverse inboxes, per remote host (decision 053).
    'fediverse-host': { points: env.RATE_LIMIT_FEDIVERSE_PER_HOST, durationSeconds },
  };
}

type LimiterState = {
  rules: Record<LimitKind, LimitRule> | null;
  limiters: Map<LimitKind, RateLimiterMongo>;
};

declare module './process-state.server' {
  interface ProcessStateRegistry {
    rateLimits: LimiterState;
  }
}

const state = processSingleton('rateLimits', (): LimiterState => ({
  rules: null,
  limiters: new Map(),
}));

/** Replace some rules (tests); the limiters are rebuilt on next use. */
export function configureRateLimits(overrides: Partial<Record<LimitKind, LimitRule>>): void {
  state.rules = { ...defaultRules(), ...overrides };
  state.limiters.clear();
}

function rules(): Record<LimitKind, LimitRule> {
  return (state.rules ??= defaultRules());
}

function limiter(kind: LimitKind): RateLimiterMongo {
  let found = state.limiters.get(kind);
  if (!found) {
    const rule = rules()[kind];
    const options = {
      points: rule.points,
      duration: rule.durationSeconds,
      keyPrefix: `rl:${kind}`,
    };
    found = new RateLimiterMongo({
      ...options,
      storeClient: mongoose.connection,
      tableName: RATE_LIMIT_COLLECTION,
      insuranceLimiter: new RateLimiterMemory(options),
    });
    state.limiters.set(kind, found);
  }
  return found;
}

/** The client address the request tracker recorded ('unknown' outside the HTTP server). */
export function clientIp(request: { headers: { get(name: string): string | null } }): string {
  return request.headers.get(CLIENT_IP_HEADER) || 'unknown';
}

const userKey = (request: Request, username: string) =>
  `${clientIp(request)}|${username.trim().toLowerCase().slice(0, 100)}`;

export type LimitDecision =
  { ok: true } | { ok: false; retryAfterSeconds: number; message: string };

export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many attempts. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
}

function refused(res: RateLimiterRes): LimitDecision {
  const retryAfterSeconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return { ok: false, retryAfterSeconds, message: tooManyAttemptsMessage(retryAfterSeconds) };
}

async function consume(kind: LimitKind, key: string): Promise<LimitDecision> {
  try {
    await limiter(kind).consume(key);
    return { ok: true };
  } catch (error) {
    if (error instanceof RateLimiterRes) return refused(error);
    throw error;
  }
}

/**
 * Count one attempt of this kind for the request's client (login also per username).
 * Call it before doing the work; `ok: false` means answer 429 with `retryAfterSeconds`.
 */
export async function consumeRateLimit(
  kind: 'login' | 'register' | 'contact' | 'subscribe',
  request: Request,
  options: { username?: string } = {},
): Promise<LimitDecision> {
  if (kind !== 'login') return consume(kind, clientIp(request));
  const byIp = await consume('login-ip', clientIp(request));
  if (!byIp.ok) return byIp;
  if (options.username === undefined) return byIp;
  return consume('login-user', userKey(request, options.username));
}

/**
 * Count one verification email from this account to this address: both limits must allow it
 * (the key of the address is its sha256, so the counters hold no address). A refusal by the
 * address's limit gives the account's point back, so only emails that go out are counted.
 */
export async function consumeVerificationEmailLimit(
  userId: number,
  addressHash: string,
): Promise<LimitDecision> {
  const byAccount = await consume('verify-email-account', String(userId));
  if (!byAccount.ok) return byAccount;
  const byAddress = await consume('verify-email-address', addressHash);
  if (!byAddress.ok) {
    await limiter('verify-email-account')
      .reward(String(userId), 1)
      .catch(() => undefined);
  }
  return byAddress;
}

/**
 * Count one post to the fediverse inboxes from a remote host (its signing key's host), as sent
 * from one address. The host is what the request claims before its signature is checked, so
 * the address is part of the key: a forger naming mastodon.social spends its own budget, not
 * the one mastodon.social's servers deliver with.
 */
export function consumeFediverseHostLimit(
  host: string,
  request: { headers: { get(name: string): string | null } },
): Promise<LimitDecision> {
  return consume('fediverse-host', `${host.toLowerCase().slice(0, 255)}|${clientIp(request)}`);
}

/** A successful login clears the per-username counter (failures are what it counts). */
export async function resetLoginLimit(request: Request, username: string): Promise<void> {
  await limiter('login-user')
    .delete(userKey(request, username))
    .catch(() => undefined);
}

/** `Retry-After` for a refused decision. */
export function retryAfterHeaders(decision: LimitDecision): Record<string, string> {
  return decision.ok ? {} : { 'Retry-After': String(decision.retryAfterSeconds) };
}

/**
 * The `headers` export of a page route whose action may answer 429: a page's answer carries
 * only the headers its route's `headers` function returns (Remix drops the action's own,
 * cookies aside), so without it the action's Retry-After never reaches the client.
 */
export const retryAfterFromAction: HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers();
  const retryAfter = actionHeaders.get('Retry-After');
  if (retryAfter) headers.set('Retry-After', retryAfter);
  return headers;
};
