import { z } from 'zod';

import { emailField, LIMITS, optionalText, requiredText } from './common';

/** What is stored: name is optional on the minimal form (see docs/decisions). */
export const SubscribeSchema = z.object({
  name: optionalText(LIMITS.name),
  email: emailField('Please enter a valid email address.'),
});
export type SubscribeInput = z.infer<typeof SubscribeSchema>;

/** The newsletter forms (full and minimal): the privacy box must be ticked, and is not stored. */
export const NewsletterFormSchema = SubscribeSchema.extend({
  privacy: z.preprocess(
    (v) => v === 'on' || v === 'true' || v === true,
    z.literal(true, { errorMap: () => ({ message: 'You must agree to receive emails.' }) }),
  ),
});

/**
 * The full newsletter form (home page) asks for a name, so it requires one; the minimal form
 * (post pages) has no name field and uses NewsletterFormSchema (docs/decisions/003).
 */
export const NewsletterFullFormSchema = NewsletterFormSchema.extend({
  name: requiredText('Name is required', LIMITS.name),
});

export const ComposeNewsletterSchema = z.object({
  subject: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z
      .string({ required_error: 'Subject must be at least 3 characters.' })
      .min(3, 'Subject must be at least 3 characters.')
      .max(LIMITS.subject, `Must be at most ${LIMITS.subject} characters`),
  ),
  content: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z
      .string({ required_error: 'Newsletter content must be at least 10 characters.' })
      .min(10, 'Newsletter content must be at least 10 characters.')
      .max(LIMITS.blogContent, `Must be at most ${LIMITS.blogContent} characters`),
  ),
});

/** /admin/settings, newsletter sign-ups: a checkbox (absent when unticked). */
export const NewsletterSettingsSchema = z.object({
  doubleOptIn: z.preprocess((v) => v === 'on' || v === 'true' || v === true, z.boolean()),
});
