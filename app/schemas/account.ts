import { z } from 'zod';

import { CONFIRM_DIFFERS, confirmPasswordField, newPasswordField, passwordField } from './auth';
import { emailField } from './common';

/** Password change for a logged-in user (/account). */
export const ChangePasswordSchema = z
  .object({
    currentPassword: passwordField('Current password is required'),
    newPassword: newPasswordField(),
    confirmPassword: confirmPasswordField(),
  })
  .refine((d) => d.newPassword === d.confirmPassword, CONFIRM_DIFFERS);

/** Deleting the account (/account/delete): the password confirms it is really the member. */
export const DeleteAccountSchema = z.object({
  password: passwordField(),
});

export const ACCOUNT_EMAIL_INTENT = 'email';
/** "Send the link again" to the account's unconfirmed address (decision 030). */
export const ACCOUNT_EMAIL_RESEND_INTENT = 'email-resend';
export const NEWSLETTER_NEEDS_EMAIL = 'Enter your email to get the newsletter';

/**
 * The account's email and newsletter (/account, decisions 020 and 030): the address is
 * optional (empty removes it); the newsletter needs one (and acts only once it is confirmed).
 */
export const AccountEmailSchema = z
  .object({
    intent: z.literal(ACCOUNT_EMAIL_INTENT),
    email: z.preprocess(
      (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
      emailField('Please enter a valid email address.').optional(),
    ),
    newsletter: z.boolean().optional(),
  })
  .refine((d) => !d.newsletter || Boolean(d.email), {
    message: NEWSLETTER_NEEDS_EMAIL,
    path: ['email'],
  });

/** The private podcast feed's buttons on /account (decision 037). */
export const PODCAST_FEED_CREATE_INTENT = 'podcast-feed-create';
export const PODCAST_FEED_REVOKE_INTENT = 'podcast-feed-revoke';
