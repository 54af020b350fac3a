import { z } from 'zod';

import { CONTACT_SUBJECTS } from '~/types/entities';

import { emailField, LIMITS, requiredText } from './common';

/**
 * The `intent` of the contact form's submit button. Here, not in the .server service, because
 * the page reads it in the browser too (a .server module is empty there).
 */
export const CONTACT_INTENT = 'contact';

export const ContactSchema = z.object({
  name: requiredText('Name is required', LIMITS.name),
  email: emailField('Invalid email'),
  subject: z.enum(CONTACT_SUBJECTS, {
    errorMap: () => ({ message: 'Please choose a subject' }),
  }),
  message: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z
      .string({ required_error: 'Message is required' })
      .min(10, 'Message must be at least 10 characters')
      .max(LIMITS.message, `Must be at most ${LIMITS.message} characters`),
  ),
});
export type ContactInput = z.infer<typeof ContactSchema>;
