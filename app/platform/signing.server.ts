import crypto from 'node:crypto';

import { env } from '~/platform/env.server';

/**
 * The one place the site signs and checks what it hands out (decision 049): subscribers' mail
 * links, the private podcast feeds' media URLs, play tokens, and the daily salt of the
 * statistics' pseudonyms. Nothing else in app/, server/ or scripts/ calls `createHmac` (a test
 * keeps it so).
 *
 * - **Rotation.** The secrets are SESSION_SECRET's comma-separated list (`env.SESSION_SECRETS`):
 *   the first signs, every one verifies. To rotate, put the new secret first and keep the old
 *   one after it for as long as the longest-lived thing it signed must keep working.
 * - **No fallback.** Without a secret nothing is signed: `env` refuses to start in production
 *   on MongoDB without SESSION_SECRET, and generates one in DATA_DIR on the embedded store; an
 *   empty list here is a programming error and throws.
 * - **Purposes.** Every purpose signs with its own key, `HMAC-SHA256(secret, purpose)`, and the
 *   mac is `HMAC-SHA256(key, message)`: a mac made for one purpose never verifies for another,
 *   whatever the messages look like. (`podcast-media` is the key the podcast URLs have always
 *   been signed with, so their URLs are unchanged.)
 * - **Constant time.** `verify` compares with `timingSafeEqual`, every key tried.
 * - **Tokens from before this module** were signed with the bare secret, `HMAC-SHA256(secret,
 *   message)`: mail links (an unsubscribe link never expires) and play tokens (6 hours).
 *   `verify` still accepts that form for those purposes (`LEGACY_PURPOSES`), and only for them.
 */
export type SigningPurpose =
  'mail-link' | 'podcast-media' | 'play-token' | 'analytics-salt' | 'list-cursor';

/** Purposes whose messages were once signed with the bare secret (see `legacyDigest`). */
const LEGACY_PURPOSES: ReadonlySet<SigningPurpose> = new Set([
  'mail-link',
  'play-token',
  'analytics-salt',
]);

export type SigningOptions = {
  /** The secrets to use instead of SESSION_SECRET's (tests); the first signs. */
  secrets?: readonly string[];
  /** Keep this many characters of the base64url mac (default: all 43). */
  length?: number;
};

/** The configured secrets, the signing one first; throws when there is none. */
export function signingSecrets(
  secrets: readonly string[] = env.SESSION_SECRETS,
): readonly string[] {
  if (secrets.length === 0 || secrets.some((s) => s.length === 0)) {
    throw new Error('No signing secret: set SESSION_SECRET (decision 049)');
  }
  return secrets;
}

/** Derived keys by purpose and secret (a few secrets × the purposes). */
const keys = new Map<string, Buffer>();

function purposeKey(secret: string, purpose: SigningPurpose): Buffer {
  const id = `${purpose}\0${secret}`;
  let key = keys.get(id);
  if (!key) {
    if (keys.size >= 64) keys.clear();
    key = crypto.createHmac('sha256', secret).update(purpose).digest();
    keys.set(id, key);
  }
  return key;
}

const macOf = (key: Buffer | string, message: string, length: number | undefined) => {
  const mac = crypto.createHmac('sha256', key).update(message).digest('base64url');
  return length === undefined ? mac : mac.slice(0, length);
};

function sameText(given: Buffer, expected: string): boolean {
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && crypto.timingSafeEqual(given, wanted);
}

/** The mac of `message` for `purpose`, with the first secret (base64url). */
export function sign(purpose: SigningPurpose, message: string, options: SigningOptions = {}) {
  const [first] = signingSecrets(options.secrets);
  return macOf(purposeKey(first, purpose), message, options.length);
}

/**
 * Whether `mac` is the mac of `message` for `purpose` under any secret. For a legacy purpose it
 * may also be the bare-secret mac of `legacyMessage` (default: `message`), the form signed
 * before decision 049.
 */
export function verify(
  purpose: SigningPurpose,
  message: string,
  mac: string,
  options: SigningOptions & { legacyMessage?: string } = {},
): boolean {
  const secrets = signingSecrets(options.secrets);
  const given = Buffer.from(mac);
  let ok = false;
  // Every secret is tried (no early exit): the time taken says nothing of which one matched.
  for (const secret of secrets) {
    if (sameText(given, macOf(purposeKey(secret, purpose), message, options.length))) ok = true;
  }
  if (!ok && LEGACY_PURPOSES.has(purpose)) {
    const legacy = options.legacyMessage ?? message;
    for (const secret of secrets) {
      if (sameText(given, macOf(secret, legacy, options.length))) ok = true;
    }
  }
  return ok;
}

/** The raw keyed digest of `message` for `purpose`, first secret: a salt that is never shown. */
export function keyedDigest(
  purpose: SigningPurpose,
  message: string,
  options: Pick<SigningOptions, 'secrets'> = {},
): Buffer {
  const [first] = signingSecrets(options.secrets);
  return crypto.createHmac('sha256', purposeKey(first, purpose)).update(message).digest();
}

/**
 * The digest as it was made before decision 049 (bare first secret), for a legacy purpose
 * only: the statistics' salt a play token issued before the change was bound to.
 */
export function legacyDigest(
  purpose: SigningPurpose,
  message: string,
  options: Pick<SigningOptions, 'secrets'> = {},
): Buffer {
  if (!LEGACY_PURPOSES.has(purpose)) throw new Error(`${purpose} has no legacy form`);
  const [first] = signingSecrets(options.secrets);
  return crypto.createHmac('sha256', first).update(message).digest();
}
