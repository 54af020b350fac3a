import crypto from 'node:crypto';

import { beforeAll, describe, expect, it } from 'vitest';

import type * as TokensModule from '~/mail/tokens.server';
import type * as PodcastModule from '~/podcast/podcast.server';
import type * as AnalyticsModule from '~/services/analytics.server';
import type { CountedRequest } from '~/services/analytics.server';
import type * as PlayTokenModule from '~/services/play-token.server';
import { siteToday } from '~/utils/time';

import type * as SigningModule from './signing.server';

/**
 * The one signing module (decision 049): purposes that never cross, rotation, no fallback, and
 * every token issued before it — minted here with the old code's own computation, copied as it
 * was — still verifying.
 */
let signing: typeof SigningModule;
let tokens: typeof TokensModule;
let analytics: typeof AnalyticsModule;
let plays: typeof PlayTokenModule;
let podcast: typeof PodcastModule;
let firstSecret: () => string;

const SECRET = 'signing-test-secret-0123456789';

beforeAll(async () => {
  process.env.SESSION_SECRET ??= SECRET;
  signing = await import('./signing.server');
  tokens = await import('~/mail/tokens.server');
  analytics = await import('~/services/analytics.server');
  plays = await import('~/services/play-token.server');
  podcast = await import('~/podcast/podcast.server');
  const { env } = await import('./env.server');
  firstSecret = () => env.SESSION_SECRETS[0]!;
});

const NEW = 'new-secret-0123456789abcdef';
const OLD = 'old-secret-0123456789abcdef';
const PURPOSES = ['mail-link', 'podcast-media', 'play-token', 'analytics-salt'] as const;

describe('signing', () => {
  it('signs with the first secret and verifies with every one (rotation)', () => {
    const mac = signing.sign('mail-link', 'hello', { secrets: [OLD] });
    expect(signing.verify('mail-link', 'hello', mac, { secrets: [NEW, OLD] })).toBe(true);
    expect(signing.verify('mail-link', 'hello', mac, { secrets: [NEW] })).toBe(false);
    const now = signing.sign('mail-link', 'hello', { secrets: [NEW, OLD] });
    expect(now).toBe(signing.sign('mail-link', 'hello', { secrets: [NEW] }));
    expect(signing.verify('mail-link', 'hello!', mac, { secrets: [NEW, OLD] })).toBe(false);
  });

  it('keeps purposes apart: a mac made for one never verifies for another', () => {
    for (const a of PURPOSES) {
      const mac = signing.sign(a, 'night-shore:unsubscribe:7', { secrets: [NEW] });
      for (const b of PURPOSES) {
        const ok = signing.verify(b, 'night-shore:unsubscribe:7', mac, { secrets: [NEW] });
        expect(ok, `${a} as ${b}`).toBe(a === b);
      }
    }
    // Nor is a purpose's key the bare secret's mac of anything a legacy token carries.
    const mailMac = signing.sign('mail-link', 'play|x.1|c', { secrets: [NEW], length: 32 });
    expect(
      signing.verify('play-token', 'play|x.1|c', mailMac, { secrets: [NEW], length: 32 }),
    ).toBe(false);
  });

  it('has no fallback: no secret, no signature', () => {
    expect(() => signing.sign('mail-link', 'x', { secrets: [] })).toThrow(/SESSION_SECRET/);
    expect(() => signing.verify('mail-link', 'x', 'y', { secrets: [''] })).toThrow();
  });

  it('refuses a mac of another length or an altered one', () => {
    const mac = signing.sign('play-token', 'm', { secrets: [NEW], length: 32 });
    expect(mac).toHaveLength(32);
    expect(
      signing.verify('play-token', 'm', mac.slice(0, 31), { secrets: [NEW], length: 32 }),
    ).toBe(false);
    const flipped = `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    expect(signing.verify('play-token', 'm', flipped, { secrets: [NEW], length: 32 })).toBe(false);
  });
});

// --- tokens issued before decision 049 ---------------------------------------------------------

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);

/** app/mail/tokens.server.ts before 049: HMAC-SHA256(secret, message), base64url, 32 chars. */
function oldMailToken(purpose: 'unsubscribe' | 'confirm', id: number, secret: string, now: number) {
  const issued = Math.floor(now).toString(36);
  const mac = crypto
    .createHmac('sha256', secret)
    .update(`night-shore:${purpose}:${id}:${issued}`)
    .digest('base64url')
    .slice(0, 32);
  return `${id}.${issued}.${mac}`;
}

describe('mail links issued before decision 049', () => {
  it('unsubscribe links (never expiring) and confirmation links still verify, also after a rotation', () => {
    const unsubscribe = oldMailToken('unsubscribe', 41, OLD, NOW - 900 * DAY);
    const confirm = oldMailToken('confirm', 42, OLD, NOW - DAY);
    for (const secrets of [[OLD], [NEW, OLD]]) {
      expect(tokens.checkLinkToken('unsubscribe', unsubscribe, { secrets, now: NOW })).toEqual({
        ok: true,
        id: 41,
        issuedAt: new Date(NOW - 900 * DAY),
      });
      expect(tokens.verifyLinkToken('confirm', confirm, { secrets, now: NOW })).toBe(42);
    }
    // The purpose is still part of what was signed: an old unsubscribe token confirms nothing.
    const asConfirm = oldMailToken('unsubscribe', 43, OLD, NOW);
    expect(tokens.verifyLinkToken('confirm', asConfirm, { secrets: [OLD], now: NOW })).toBe(null);
    // Once the old secret is dropped, its links stop working: rotation still means something.
    expect(tokens.verifyLinkToken('unsubscribe', unsubscribe, { secrets: [NEW], now: NOW })).toBe(
      null,
    );
  });

  it('new links are signed for the mail-link purpose, not with the bare secret', () => {
    const token = tokens.signLinkToken('unsubscribe', 44, { secrets: [NEW], now: NOW });
    expect(token).not.toBe(oldMailToken('unsubscribe', 44, NEW, NOW));
    expect(tokens.verifyLinkToken('unsubscribe', token, { secrets: [OLD, NEW], now: NOW })).toBe(
      44,
    );
  });
});

describe('private podcast feeds: signed media URLs', () => {
  /** app/services/podcast.server.ts before 049, as it signed and built a URL. */
  function oldSignedMediaPath(
    secret: string,
    tokenId: string,
    expiry: number,
    id: number,
    file: string,
  ) {
    const key = crypto.createHmac('sha256', secret).update('podcast-media').digest();
    const sig = crypto
      .createHmac('sha256', key)
      .update(`${tokenId}\n${expiry}\n${id}\n${file}`)
      .digest('base64url');
    return `/podcast/media/${encodeURIComponent(tokenId)}/${expiry}/${sig}/${id}/${encodeURIComponent(file)}`;
  }

  it('are byte for byte what they were, and the ones already in feeds verify', () => {
    const secret = firstSecret();
    const expiry = podcast.signedExpiry(NOW);
    const track = { id: 12, audioFile: '/uploads/audio/set one.mp3' };
    const path = podcast.signedMediaPath('tok-1', track, expiry);
    expect(path).toBe(oldSignedMediaPath(secret, 'tok-1', expiry, 12, 'set one.mp3'));
    const sig = path.split('/')[5]!;
    expect(podcast.signatureValid(sig, 'tok-1', expiry, 12, 'set one.mp3')).toBe(true);
    expect(podcast.signatureValid(sig, 'tok-2', expiry, 12, 'set one.mp3')).toBe(false);
    expect(podcast.signatureValid(sig, 'tok-1', expiry + 1, 12, 'set one.mp3')).toBe(false);
  });
});

describe('play tokens issued before decision 049', () => {
  const request: CountedRequest = {
    method: 'POST',
    url: 'http://localhost:3000/api/plays',
    headers: new Headers({ 'x-night-shore-client-ip': '203.0.113.9', 'user-agent': 'Test/1.0' }),
  };

  /** services/play-token.server.ts and analytics.server.ts before 049 (bare first secret). */
  function oldPlayToken(secret: string, host: string | null, now: number) {
    const salt = crypto
      .createHmac('sha256', secret)
      .update(`analytics|${siteToday(new Date(now))}`)
      .digest();
    const client = crypto
      .createHash('sha256')
      .update(salt)
      .update('203.0.113.9')
      .update('\0')
      .update('Test/1.0')
      .digest('base64url')
      .slice(0, 22);
    const payload = `${host ?? ''}.${now.toString(36)}`;
    const mac = crypto
      .createHmac('sha256', secret)
      .update(`play|${payload}|${client}`)
      .digest('base64url')
      .slice(0, 32);
    return `${payload}.${mac}`;
  }

  it('a token a player or an embed page holds still counts, for the same client only', () => {
    const secret = firstSecret();
    const now = Date.now();
    const token = oldPlayToken(secret, 'blog.example', now - 60_000);
    expect(plays.verifyPlayToken(token, request, now)).toEqual({ host: 'blog.example' });
    const other = {
      ...request,
      headers: new Headers({ 'x-night-shore-client-ip': '203.0.113.10', 'user-agent': 'Test/1.0' }),
    };
    expect(plays.verifyPlayToken(token, other, now)).toBeNull();
    expect(
      plays.verifyPlayToken(oldPlayToken('another-secret-0123456789', null, now), request, now),
    ).toBeNull();
  });

  it('new tokens verify, and differ from the old form', () => {
    const now = Date.now();
    const token = plays.playToken(request, null, now);
    expect(plays.verifyPlayToken(token, request, now)).toEqual({ host: null });
    const secret = firstSecret();
    expect(token).not.toBe(oldPlayToken(secret, null, now));
  });

  it("the statistics' pseudonym is keyed for its purpose (and the old salt is kept for old tokens only)", () => {
    const day = siteToday();
    expect(analytics.clientHash(request, day)).not.toBe(
      analytics.clientHash(request, day, { legacy: true }),
    );
    expect(analytics.clientHash(request, day)).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});
