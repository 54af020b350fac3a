import crypto from 'node:crypto';

import {
  AlreadySubscribedError,
  findSubscriberByEmail,
  unsubscribeSubscriber,
} from '~/models/subscriber.server';
import {
  clearPendingEmail,
  clearUserEmails,
  confirmPendingEmail,
  findPendingEmailByTokenHash,
  getUserEmailState,
  setPendingEmail,
} from '~/models/user.server';
import { consumeRateLimit, consumeVerificationEmailLimit } from '~/platform/rate-limit.server';
import type { UserJSON } from '~/types/entities';

import { sendEmailVerification, subscribe } from './mail.server';

/**
 * The account's email and its newsletter toggle (/account, decisions 020 and 030).
 *
 * An address is the account's only once it is proven: a new one waits, "unconfirmed", for
 * the link sent to it (24 hours, single use, only its sha256 stored), and gets nothing else.
 * The confirmed address stays in use until then. The toggle acts only on the confirmed
 * address; it is the newsletter list seen from the account: on means the address is on the
 * list (active, or pending its own confirmation when sign-ups must be confirmed); off means
 * it is not.
 */
export type AccountNewsletter = 'subscribed' | 'pending' | 'off';

export type AccountEmail = {
  /** The confirmed address (null: none). */
  email: string | null;
  /** An address waiting for its verification link (null: none). */
  pendingEmail: string | null;
  /** The newsletter for the confirmed address ('off' without one). */
  newsletter: AccountNewsletter;
};

/** How long a verification link works. */
export const EMAIL_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;

const onTheList = (status: string | undefined) => status === 'active' || status === 'pending';

/** The toggle as the list's entry for the address says it (none: off). */
const newsletterOf = (entry: { status: string } | null | undefined): AccountNewsletter =>
  entry?.status === 'active' ? 'subscribed' : entry?.status === 'pending' ? 'pending' : 'off';

const sameAddress = (a: string | null | undefined, b: string | null | undefined) =>
  Boolean(a && b && a.trim().toLowerCase() === b.trim().toLowerCase());

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

/** The key an address is counted under (rate limits): its hash, case-insensitively. */
const addressKey = (email: string) => sha256(email.trim().toLowerCase());

export async function getAccountEmail(userId: number): Promise<AccountEmail> {
  const state = await getUserEmailState(userId);
  return {
    email: state.email,
    pendingEmail: state.pendingEmail,
    newsletter: state.email ? newsletterOf(await findSubscriberByEmail(state.email)) : 'off',
  };
}

/** The limits refused a verification email (or a sign-up): answer 429 with this message. */
export type TooMany = { result: 'too-many'; message: string; retryAfterSeconds: number };

export type SaveAccountEmailOutcome =
  | { result: 'removed' }
  /** The confirmed address, with the toggle applied. */
  | { result: 'saved'; email: string; newsletter: AccountNewsletter }
  /** Back to the confirmed address: the pending change was dropped, the toggle untouched. */
  | { result: 'change-cancelled'; email: string; newsletter: AccountNewsletter }
  /** A verification link went to the new address; `email` stays in use until then. */
  | { result: 'link-sent'; pendingEmail: string; email: string | null }
  /** The same unconfirmed address again, its link still live: nothing sent. */
  | { result: 'link-live'; pendingEmail: string; email: string | null }
  | TooMany;

/**
 * Save the form: remove the addresses (null), keep the confirmed one (and apply the toggle),
 * or start confirming a new one. The toggle counts only for the confirmed address, and only
 * when no change was pending (the form shows it disabled then): an unconfirmed address can
 * neither subscribe nor unsubscribe anyone.
 */
export async function saveAccountEmail(
  user: UserJSON,
  input: { email: string | null; newsletter: boolean },
  request: Request | undefined,
): Promise<SaveAccountEmailOutcome> {
  const state = await getUserEmailState(user.id);
  const email = input.email?.trim() || null;

  if (!email) {
    await clearUserEmails(user.id);
    // The member proved the confirmed address: it leaves the list with the account's address.
    if (state.email) await leaveTheList(state.email);
    return { result: 'removed' };
  }
  if (sameAddress(email, state.email) && state.email) {
    if (state.pendingEmail) {
      await clearPendingEmail(user.id);
      return {
        result: 'change-cancelled',
        email: state.email,
        newsletter: newsletterOf(await findSubscriberByEmail(state.email)),
      };
    }
    const toggled = await applyNewsletter(user, state.email, input.newsletter, request);
    if (toggled.result === 'too-many') return toggled;
    return { result: 'saved', email: state.email, newsletter: toggled.newsletter };
  }
  if (sameAddress(email, state.pendingEmail) && state.linkLive && state.pendingEmail) {
    return { result: 'link-live', pendingEmail: state.pendingEmail, email: state.email };
  }
  const sent = await sendLink(user, email);
  if (sent.result === 'too-many') return sent;
  return { result: 'link-sent', pendingEmail: email, email: state.email };
}

/** "Send the link again": a new link to the unconfirmed address (the old one stops working). */
export async function resendEmailLink(
  user: UserJSON,
): Promise<
  { result: 'link-sent'; pendingEmail: string } | { result: 'nothing-pending' } | TooMany
> {
  const { pendingEmail } = await getUserEmailState(user.id);
  if (!pendingEmail) return { result: 'nothing-pending' };
  const sent = await sendLink(user, pendingEmail);
  if (sent.result === 'too-many') return sent;
  return { result: 'link-sent', pendingEmail };
}

/**
 * Counted first (3 an hour from the account, 3 an hour to the address, in the database so it
 * holds across instances); a refusal changes and sends nothing.
 */
async function sendLink(user: UserJSON, email: string): Promise<{ result: 'sent' } | TooMany> {
  const decision = await consumeVerificationEmailLimit(user.id, addressKey(email));
  if (!decision.ok) return { result: 'too-many', ...decision };
  const token = crypto.randomBytes(32).toString('base64url');
  await setPendingEmail(user.id, {
    email,
    tokenHash: sha256(token),
    expiresAt: new Date(Date.now() + EMAIL_LINK_LIFETIME_MS),
  });
  await sendEmailVerification({ username: user.username, email, token });
  return { result: 'sent' };
}

async function leaveTheList(email: string): Promise<void> {
  const entry = await findSubscriberByEmail(email);
  if (entry && onTheList(entry.status)) await unsubscribeSubscriber(entry.id);
}

/**
 * The toggle on the confirmed address. On signs it up as the public form does (a
 * confirmation email first when double opt-in is on), counted against the same sign-up
 * limit; an address already on the list stays as it is. Off unsubscribes it.
 */
async function applyNewsletter(
  user: UserJSON,
  email: string,
  on: boolean,
  request: Request | undefined,
): Promise<{ result: 'ok'; newsletter: AccountNewsletter } | TooMany> {
  if (!on) {
    await leaveTheList(email);
    return { result: 'ok', newsletter: 'off' };
  }
  const entry = await findSubscriberByEmail(email);
  if (entry && onTheList(entry.status)) return { result: 'ok', newsletter: newsletterOf(entry) };
  if (request) {
    const decision = await consumeRateLimit('subscribe', request);
    if (!decision.ok) return { result: 'too-many', ...decision };
  }
  return { result: 'ok', newsletter: await signUp(user, email) };
}

async function signUp(user: UserJSON, email: string): Promise<AccountNewsletter> {
  try {
    const { mustConfirm } = await subscribe({ name: user.username, email, ownerProven: true });
    return mustConfirm ? 'pending' : 'subscribed';
  } catch (error) {
    // Signed up in the meantime (another tab, the public form): it is on the list.
    if (error instanceof AlreadySubscribedError) return 'subscribed';
    throw error;
  }
}

export type VerifyEmailOutcome =
  | { result: 'confirmed'; email: string; newsletter: AccountNewsletter }
  /** Not a link we sent (or one replaced by a newer link). */
  | { result: 'invalid' }
  /** Sent for another account than the one logged in. */
  | { result: 'foreign' }
  | { result: 'expired' }
  | { result: 'used' };

/** The tokens of our links: 32 random bytes, base64url. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Follow a verification link, logged in as `user`: the link's address becomes the account's
 * confirmed address. If the address it replaces was on the newsletter list, the subscription
 * moves along to the new one (with the list's rules), as it did before verification.
 */
export async function verifyAccountEmail(
  user: UserJSON,
  token: string,
): Promise<VerifyEmailOutcome> {
  if (!TOKEN_SHAPE.test(token)) return { result: 'invalid' };
  const tokenHash = sha256(token);
  const found = await findPendingEmailByTokenHash(tokenHash);
  if (found.state === 'unknown') return { result: 'invalid' };
  if (found.userId !== user.id) return { result: 'foreign' };
  if (found.state !== 'live') return { result: found.state };
  const confirmed = await confirmPendingEmail(tokenHash);
  // Lost a race with a twin click, or expired in between.
  if (!confirmed) return { result: 'used' };

  const previous = confirmed.previous;
  if (previous && !sameAddress(previous, confirmed.email)) {
    const old = await findSubscriberByEmail(previous);
    if (old && onTheList(old.status)) {
      await unsubscribeSubscriber(old.id);
      const moved = await signUp(user, confirmed.email);
      return { result: 'confirmed', email: confirmed.email, newsletter: moved };
    }
  }
  return {
    result: 'confirmed',
    email: confirmed.email,
    newsletter: newsletterOf(await findSubscriberByEmail(confirmed.email)),
  };
}
