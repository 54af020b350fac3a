import { z } from 'zod';

import { emailField, LIMITS } from './common';

/** Password change for a logged-in user (/account). */
export const ChangePasswordSchema = z
  .object({
    currentPassword: z
      .string({ required_error: 'Current password is required' })
      .min(1, 'Current password is required')
      .max(LIMITS.password, `Must be at most ${LIMITS.password} characters`),
    newPassword: z
      .string({ required_error: 'Password must be at least 6 characters' })
      .min(6, 'Password must be at least 6 characters')
      .max(LIMITS.password, `Must be at most ${LIMITS.password} characters`),
    confirmPassword: z
      .string({ required_error: "Passwords don't match" })
      .max(LIMITS.password, `Must be at most ${LIMITS.password} characters`),
  })
  .refine((d) => d.newPassword === d.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });

/** Deleting the account (/account/delete): the password confirms it is really the member. */
export const DeleteAccountSchema = z.object({
  password: z
    .string({ required_error: 'Password is required' })
    .min(1, 'Password is required')
    .max(LIMITS.password, `Must be at most ${LIMITS.password} characters`),
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
