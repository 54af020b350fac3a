import { parseWithZod } from '@conform-to/zod';
import { data } from '@remix-run/node';

import { createUserSession } from '~/auth/auth.server';
import { redirectWithToast } from '~/auth/toast.server';
import { createFeedToken, revokeFeedTokens } from '~/models/podcast-feed-token.server';
import { privateFeedUrl } from '~/podcast/podcast.server';
import { AccountEmailSchema, ChangePasswordSchema } from '~/schemas/account';
import {
  type AccountNewsletter,
  resendEmailLink,
  saveAccountEmail,
  type SaveAccountEmailOutcome,
} from '~/services/account-email.server';
import { changeAccountPassword, confirmOwnPassword } from '~/services/accounts.server';
import type { UserJSON } from '~/types/entities';

/**
 * What the account page's forms do (its action picks one by `intent`): the email and newsletter
 * toggle, the link sent again, the private podcast feed, the password.
 */

const hideFields = ['currentPassword', 'newPassword', 'confirmPassword'];

const NEWSLETTER: Record<AccountNewsletter, (email: string) => string> = {
  subscribed: (email) => `You're subscribed to the newsletter at ${email}.`,
  pending: (email) =>
    `Check your inbox: confirm your subscription with the link we sent to ${email}.`,
  off: () => "Your email was saved. You won't get the newsletter.",
};

const UNCONFIRMED_UNTIL = (email: string | null) =>
  email ? ` Until then we keep using ${email}.` : ' Until then we send nothing else to it.';

/** The toast of a saved email form (decisions 020 and 030). */
function savedToast(saved: Exclude<SaveAccountEmailOutcome, { result: 'too-many' }>) {
  switch (saved.result) {
    case 'removed':
      return {
        title: 'Email settings saved',
        description: 'Your account has no email address now.',
      };
    case 'saved':
      return {
        title: 'Email settings saved',
        description: NEWSLETTER[saved.newsletter](saved.email),
      };
    case 'change-cancelled':
      return {
        title: 'Email settings saved',
        description: `You keep ${saved.email}; the change to another address was cancelled.`,
      };
    case 'link-sent':
      return {
        title: 'Check your inbox',
        description: `We sent a link to ${saved.pendingEmail}: open it to confirm the address.${UNCONFIRMED_UNTIL(saved.email)}`,
      };
    case 'link-live':
      return {
        title: 'Check your inbox',
        description: `${saved.pendingEmail} is still unconfirmed: open the link we sent to it, or send it again.`,
      };
  }
}

/** The account's email and newsletter toggle (decisions 020 and 030). */
export async function saveEmail(user: UserJSON, formData: FormData, request: Request) {
  const submission = parseWithZod(formData, { schema: AccountEmailSchema });
  if (submission.status !== 'success') {
    return data({ form: 'email' as const, result: submission.reply() }, { status: 400 });
  }
  const saved = await saveAccountEmail(
    user,
    { email: submission.value.email ?? null, newsletter: submission.value.newsletter === true },
    request,
  );
  if (saved.result === 'too-many') {
    return data(
      { form: 'email' as const, result: submission.reply({ formErrors: [saved.message] }) },
      { status: 429, headers: { 'Retry-After': String(saved.retryAfterSeconds) } },
    );
  }
  return redirectWithToast('/account', { type: 'success', ...savedToast(saved) });
}

/** "Send the link again" to the unconfirmed address. */
export async function resendLink(user: UserJSON) {
  const sent = await resendEmailLink(user);
  if (sent.result === 'too-many') {
    return data(
      { form: 'email-resend' as const, error: sent.message },
      { status: 429, headers: { 'Retry-After': String(sent.retryAfterSeconds) } },
    );
  }
  if (sent.result === 'nothing-pending') {
    return redirectWithToast('/account', {
      type: 'info',
      title: 'Nothing to confirm',
      description: 'Your account has no unconfirmed email address.',
    });
  }
  return redirectWithToast('/account', {
    type: 'success',
    title: 'Link sent',
    description: `We sent a new link to ${sent.pendingEmail}. The one we sent before no longer works.`,
  });
}

/**
 * A new private podcast feed (decision 037), replacing any earlier one. Its address is in this
 * answer only (never in a redirect's URL or a cookie), so it is rendered at once and never
 * stored by any cache.
 */
export async function createPodcastFeed(user: UserJSON) {
  const { token } = await createFeedToken(user.id);
  return data(
    { form: 'podcast-feed' as const, feedUrl: privateFeedUrl(token) },
    { headers: { 'Cache-Control': 'private, no-store' } },
  );
}

export async function revokePodcastFeed(user: UserJSON) {
  const revoked = await revokeFeedTokens(user.id);
  return redirectWithToast('/account', {
    type: revoked ? 'success' : 'info',
    title: revoked ? 'Private feed revoked' : 'No private feed',
    description: revoked
      ? 'Your private feed address and its episode links no longer work.'
      : 'Your account had no private feed.',
  });
}

export async function changePassword(user: UserJSON, formData: FormData, request: Request) {
  const submission = parseWithZod(formData, { schema: ChangePasswordSchema });
  const password = (result: ReturnType<typeof submission.reply>) => ({
    form: 'password' as const,
    result,
  });
  if (submission.status !== 'success') {
    return data(password(submission.reply({ hideFields })), { status: 400 });
  }
  const check = await confirmOwnPassword(request, user.username, submission.value.currentPassword);
  if (check.result === 'too-many') {
    return data(password(submission.reply({ formErrors: [check.message], hideFields })), {
      status: 429,
      headers: check.headers,
    });
  }
  if (check.result === 'incorrect') {
    return data(
      password(
        submission.reply({
          fieldErrors: { currentPassword: ['Current password is incorrect'] },
          hideFields,
        }),
      ),
      { status: 400 },
    );
  }
  const feedRevoked = await changeAccountPassword(user, submission.value.newPassword);
  const headers = await createUserSession(request, user);
  return redirectWithToast(
    '/account',
    {
      type: 'success',
      title: 'Password changed',
      description: feedRevoked
        ? 'Your password was changed, your other sessions were signed out and your private podcast feed was revoked: create a new one below.'
        : 'Your password was changed and your other sessions were signed out.',
    },
    { headers },
  );
}
