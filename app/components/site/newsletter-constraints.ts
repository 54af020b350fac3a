import { LIMITS } from '~/utils/form-constants';
import type { FieldConstraint } from './server-form';

/**
 * The HTML constraints of the newsletter forms, as `getZodConstraint` derives them from
 * `NewsletterFullFormSchema` / `NewsletterFormSchema`. Written out so the form ships without
 * conform or zod (page-weight budget, issue 9); newsletter-constraints.test.ts keeps them equal
 * to the schemas. Validation itself runs on the server with the schemas.
 */
export const NEWSLETTER_CONSTRAINTS: Record<
  'full' | 'minimal',
  Record<'name' | 'email' | 'privacy', FieldConstraint>
> = {
  full: {
    name: { required: true, minLength: 1, maxLength: LIMITS.name },
    email: { required: true, minLength: 1, maxLength: LIMITS.email },
    privacy: { required: true },
  },
  minimal: {
    name: { required: false, maxLength: LIMITS.name },
    email: { required: true, minLength: 1, maxLength: LIMITS.email },
    privacy: { required: true },
  },
};
