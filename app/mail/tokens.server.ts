import { sign, verify } from '~/platform/signing.server';

/**
 * Signed links for subscribers: `/unsubscribe/{token}` and `/newsletter/confirm/{token}`
 * (decisions 016 and 029).
 *
 * A token is `{subscriber id}.{issue time}.{mac}`: the issue time in milliseconds since the
 * epoch written in base 36, the mac the `mail-link` signature of purpose, id and issue time
 * (platform/signing: base64url, 32 characters; first secret signs, every one verifies), so an
 * id alone is no use and a changed character is refused. Links signed before decision 049
 * (bare secret) still verify. Subscriber ids are never reused. Every part is URL-safe and
 * bounded: a token is at most 56 characters.
 *
 * - A confirmation token expires CONFIRM_TOKEN_TTL_MS after it was issued.
 * - An unsubscribe token never expires (it is in every newsletter sent and in its
 *   List-Unsubscribe header, RFC 8058). Tokens from before issue times existed,
 *   `{id}.{mac}`, are in emails already delivered: they keep working for unsubscribing.
 *   An old-format confirmation token is refused as expired.
 */
export type LinkPurpose = 'unsubscribe' | 'confirm';

/** How long a confirmation link works: 7 days. */
export const CONFIRM_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** An issue time this far ahead of the clock (another instance's) is still accepted. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;
/** Longest token: 12-digit id, 10 base-36 digits of time, 32 of mac, two dots. */
const MAX_TOKEN_LENGTH = 56;

const TOKEN = /^(\d{1,12})\.(?:([0-9a-z]{1,10})\.)?([A-Za-z0-9_-]{32})$/;

/** What is signed. Without an issue time: the message the first tokens were signed over. */
const message = (purpose: LinkPurpose, id: number, issued: string | null) =>
  `night-shore:${purpose}:${id}${issued === null ? '' : `:${issued}`}`;
const MAC_LENGTH = 32;

export function signLinkToken(
  purpose: LinkPurpose,
  id: number,
  options: { secrets?: string[]; now?: number } = {},
): string {
  const issued = Math.floor(options.now ?? Date.now()).toString(36);
  const mac = sign('mail-link', message(purpose, id, issued), {
    secrets: options.secrets,
    length: MAC_LENGTH,
  });
  return `${id}.${issued}.${mac}`;
}

/** What a token says, once its mac is checked. */
export type LinkTokenCheck =
  | {
      ok: true;
      id: number;
      /** When the link was made; null for a token from before issue times (unsubscribe). */
      issuedAt: Date | null;
    }
  | {
      ok: false;
      /** `invalid`: malformed, not ours, or for another purpose. `expired`: ours, too old. */
      reason: 'invalid' | 'expired';
    };

export function checkLinkToken(
  purpose: LinkPurpose,
  token: string,
  options: { secrets?: string[]; now?: number } = {},
): LinkTokenCheck {
  const now = options.now ?? Date.now();
  const invalid = { ok: false, reason: 'invalid' } as const;
  if (token.length > MAX_TOKEN_LENGTH) return invalid;
  const match = TOKEN.exec(token);
  if (!match) return invalid;
  const id = Number(match[1]);
  const issued = match[2] ?? null;
  const ok = verify('mail-link', message(purpose, id, issued), match[3], {
    secrets: options.secrets,
    length: MAC_LENGTH,
  });
  if (!ok || id <= 0) return invalid;
  if (issued === null) {
    return purpose === 'unsubscribe'
      ? { ok: true, id, issuedAt: null }
      : { ok: false, reason: 'expired' };
  }
  const issuedAt = parseInt(issued, 36);
  if (!Number.isSafeInteger(issuedAt) || issuedAt > now + CLOCK_SKEW_MS) return invalid;
  if (purpose === 'confirm' && now - issuedAt > CONFIRM_TOKEN_TTL_MS) {
    return { ok: false, reason: 'expired' };
  }
  return { ok: true, id, issuedAt: new Date(issuedAt) };
}

/** The subscriber id a token names, or null when it is malformed, not ours or expired. */
export function verifyLinkToken(
  purpose: LinkPurpose,
  token: string,
  options: { secrets?: string[]; now?: number } = {},
): number | null {
  const check = checkLinkToken(purpose, token, options);
  return check.ok ? check.id : null;
}

/** `j•••@example.com`: enough for its owner to recognise, not enough to harvest. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email[0]}•••${email.slice(at)}`;
}
