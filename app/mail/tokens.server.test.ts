import crypto from 'node:crypto';

import { beforeAll, describe, expect, it } from 'vitest';

import type * as TokensModule from './tokens.server';

let tokens: typeof TokensModule;

beforeAll(async () => {
  process.env.SESSION_SECRET ??= 'unit-test-session-secret-0123456789';
  tokens = await import('./tokens.server');
});

const SECRET = 'first-secret-0123456789';
const OLD_SECRET = 'older-secret-0123456789';
const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);

/** A token as links were signed before they carried an issue time: `{id}.{mac}`. */
function oldFormatToken(purpose: 'unsubscribe' | 'confirm', id: number, secret = SECRET) {
  const mac = crypto
    .createHmac('sha256', secret)
    .update(`night-shore:${purpose}:${id}`)
    .digest('base64url')
    .slice(0, 32);
  return `${id}.${mac}`;
}

const sign = (purpose: 'unsubscribe' | 'confirm', id: number, now = NOW, secret = SECRET) =>
  tokens.signLinkToken(purpose, id, { secrets: [secret], now });
const check = (purpose: 'unsubscribe' | 'confirm', token: string, now = NOW) =>
  tokens.checkLinkToken(purpose, token, { secrets: [SECRET, OLD_SECRET], now });

describe('link tokens', () => {
  it('carry their issue time, are URL-safe and bounded', () => {
    const token = sign('confirm', 42);
    expect(token).toMatch(/^42\.[0-9a-z]+\.[A-Za-z0-9_-]{32}$/);
    expect(encodeURIComponent(token)).toBe(token);
    expect(check('confirm', token)).toEqual({ ok: true, id: 42, issuedAt: new Date(NOW) });
    const longest = sign('unsubscribe', 999_999_999_999, NOW);
    expect(longest.length).toBeLessThanOrEqual(56);
    expect(check('unsubscribe', longest)).toMatchObject({ ok: true, id: 999_999_999_999 });
  });

  it('a confirmation link works for 7 days, then is expired', () => {
    const token = sign('confirm', 7);
    expect(check('confirm', token, NOW + 7 * DAY)).toMatchObject({ ok: true, id: 7 });
    expect(check('confirm', token, NOW + 7 * DAY + 1)).toEqual({ ok: false, reason: 'expired' });
    expect(
      tokens.verifyLinkToken('confirm', token, { secrets: [SECRET], now: NOW + 8 * DAY }),
    ).toBe(null);
  });

  it('an unsubscribe link never expires', () => {
    const token = sign('unsubscribe', 7);
    expect(check('unsubscribe', token, NOW + 3650 * DAY)).toEqual({
      ok: true,
      id: 7,
      issuedAt: new Date(NOW),
    });
  });

  it('refuses a changed id, time or mac, another purpose, and a time far ahead', () => {
    const token = sign('confirm', 12);
    const [id, issued, mac] = token.split('.');
    const flip = (c: string) => (c === 'A' ? 'B' : 'A');
    for (const tampered of [
      `13.${issued}.${mac}`,
      `${id}.${(parseInt(issued, 36) + 1).toString(36)}.${mac}`,
      `${id}.${issued}.${mac.slice(0, -1)}${flip(mac.slice(-1))}`,
      `${id}.${mac}`,
    ]) {
      expect(check('confirm', tampered)).toEqual({ ok: false, reason: 'invalid' });
    }
    expect(check('unsubscribe', token)).toEqual({ ok: false, reason: 'invalid' });
    // Signed an hour in the future (no clock is that far off): not ours to trust.
    expect(check('confirm', sign('confirm', 12, NOW + 60 * 60 * 1000))).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect(check('confirm', sign('confirm', 12, NOW + 60 * 1000))).toMatchObject({ ok: true });
  });

  it('refuses malformed and oversized tokens without throwing', () => {
    for (const bad of [
      '',
      '.',
      '0.abc.' + 'A'.repeat(32),
      'abc.def',
      `1.${'z'.repeat(11)}.${'A'.repeat(32)}`,
      `1.${'A'.repeat(33)}`,
      `${'9'.repeat(13)}.${'A'.repeat(32)}`,
      `1.abc.${'A'.repeat(32)}`.repeat(1000),
      '1.abc.A/B+C=D',
      '../../etc/passwd',
    ]) {
      expect(check('confirm', bad)).toEqual({ ok: false, reason: 'invalid' });
      expect(check('unsubscribe', bad)).toEqual({ ok: false, reason: 'invalid' });
    }
  });

  it('signs with the first secret and verifies against each (rotation)', () => {
    const signedBefore = sign('unsubscribe', 5, NOW, OLD_SECRET);
    expect(check('unsubscribe', signedBefore)).toMatchObject({ ok: true, id: 5 });
    const rotated = tokens.signLinkToken('unsubscribe', 5, {
      secrets: [SECRET, OLD_SECRET],
      now: NOW,
    });
    expect(rotated).toBe(sign('unsubscribe', 5));
    // A secret no longer configured verifies nothing.
    expect(
      tokens.checkLinkToken('unsubscribe', signedBefore, { secrets: [SECRET], now: NOW }),
    ).toEqual({ ok: false, reason: 'invalid' });
  });

  it('old-format tokens (no issue time): unsubscribe keeps working, confirmation is expired', () => {
    expect(check('unsubscribe', oldFormatToken('unsubscribe', 9))).toEqual({
      ok: true,
      id: 9,
      issuedAt: null,
    });
    expect(check('unsubscribe', oldFormatToken('unsubscribe', 9, OLD_SECRET))).toMatchObject({
      ok: true,
      id: 9,
    });
    expect(
      tokens.verifyLinkToken('unsubscribe', oldFormatToken('unsubscribe', 9), {
        secrets: [SECRET],
      }),
    ).toBe(9);
    expect(check('confirm', oldFormatToken('confirm', 9))).toEqual({
      ok: false,
      reason: 'expired',
    });
    // Another purpose's old token stays invalid, not "expired".
    expect(check('confirm', oldFormatToken('unsubscribe', 9))).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });
});
