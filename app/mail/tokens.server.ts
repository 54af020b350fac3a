import crypto from 'node:crypto';
import { env } from '~/server/env.server';

/**
 * Signed links for subscribers: `/unsubscribe/{token}` and `/newsletter/confirm/{token}`.
 * A token is `{subscriber id}.{HMAC-SHA256 of purpose and id}`, signed with the first
 * SESSION_SECRET and checked against each (rotation), so an id alone is no use and a
 * changed character is refused. Subscriber ids are never reused.
 */
export type LinkPurpose = 'unsubscribe' | 'confirm';

const mac = (secret: string, purpose: LinkPurpose, id: number) =>
  crypto
    .createHmac('sha256', secret)
    .update(`night-shore:${purpose}:${id}`)
    .digest('base64url')
    .slice(0, 32);

export function signLinkToken(
  purpose: LinkPurpose,
  id: number,
  secrets = env.SESSION_SECRETS,
): string {
  return `${id}.${mac(secrets[0], purpose, id)}`;
}

/** The subscriber id a token names, or null when it is malformed or not ours. */
export function verifyLinkToken(
  purpose: LinkPurpose,
  token: string,
  secrets = env.SESSION_SECRETS,
): number | null {
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{32})$/.exec(token);
  if (!match) return null;
  const id = Number(match[1]);
  const given = Buffer.from(match[2]);
  const ok = secrets.some((secret) =>
    crypto.timingSafeEqual(Buffer.from(mac(secret, purpose, id)), given),
  );
  return ok && id > 0 ? id : null;
}

/** `j•••@example.com`: enough for its owner to recognise, not enough to harvest. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email[0]}•••${email.slice(at)}`;
}
